import CareSyncCore
@testable import CareSyncServer

/// Blood pressure bodies: one pair as a device posts it.
enum Pressure {
    /// A reading of `systolic` over `diastolic` in `unit` at `time` on 2020-06-18 (UTC), an instant.
    static func pair(_ systolic: Double, _ diastolic: Double, unit: String = "mmHg", at time: String = "08:00",
                     id: String? = nil, version: Int? = nil) -> JSONValue {
        var o: [String: JSONValue] = [
            "type": "bloodPressure", "unit": .string(unit),
            "components": ["bloodPressureSystolic": .number(systolic), "bloodPressureDiastolic": .number(diastolic)],
            "start": .string("2020-06-18T\(time):00Z"), "end": .string("2020-06-18T\(time):00Z"),
        ]
        if let id { o["syncIdentifier"] = .string(id) }
        if let version { o["syncVersion"] = .number(Double(version)) }
        return .object(o)
    }

    /// A standalone component sample (`bloodPressureSystolic` or `bloodPressureDiastolic`) in mmHg.
    static func component(_ type: SampleType, _ value: Double, at time: String) -> JSONValue {
        ["type": .string(type.rawValue), "value": .number(value), "unit": "mmHg",
         "start": .string("2020-06-18T\(time):00Z"), "end": .string("2020-06-18T\(time):00Z")]
    }

    /// `value` mmHg in `unit`, by the unit table.
    static func mmHg(_ value: Double, in unit: String) -> Double {
        HealthUnit.named("mmHg")!.convert(value, to: HealthUnit.named(unit)!)
    }
}
