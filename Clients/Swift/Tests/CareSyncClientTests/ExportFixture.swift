import Foundation
@testable import HealthExport

/// An Apple Health export built from values, written as the Health app writes `export.xml`, so a test can
/// compare what the server stores with exactly what the XML says.
struct ExportFixture {
    /// One `<Record>`.
    struct Record {
        var type: String
        var source: String
        var unit: String?
        var start: String
        var end: String
        var value: String
        var device: String?
        var metadata: [(String, String)] = []

        static func make(_ type: String, source: String = "Alice’s Apple Watch", unit: String? = "count/min",
                         start: String = "2020-06-16 10:00:00 -0700", end: String? = nil, value: String,
                         device: String? = nil, metadata: [(String, String)] = []) -> Record {
            Record(type: "HKQuantityTypeIdentifier" + type, source: source, unit: unit, start: start, end: end ?? start,
                   value: value, device: device, metadata: metadata)
        }

        /// The record's XML (`indent` spaces in front).
        func xml(_ indent: Int = 1) -> String {
            let pad = String(repeating: " ", count: indent)
            var text = "\(pad)<Record type=\"\(type)\" sourceName=\"\(escape(source))\" sourceVersion=\"7.0\""
                + (device.map { " device=\"\(escape($0))\"" } ?? "") + (unit.map { " unit=\"\($0)\"" } ?? "")
                + " creationDate=\"2020-06-21 09:00:00 -0700\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
            guard !metadata.isEmpty else { return text + "/>\n" }
            text += ">\n"
            for (key, value) in metadata { text += "\(pad) <MetadataEntry key=\"\(escape(key))\" value=\"\(escape(value))\"/>\n" }
            return text + "\(pad)</Record>\n"
        }
    }

    /// One `<Correlation>` with its records.
    struct Correlation {
        var type: String
        var source: String
        var start: String
        var device: String?
        var metadata: [(String, String)]
        var records: [Record]

        func xml() -> String {
            var text = " <Correlation type=\"\(type)\" sourceName=\"\(escape(source))\" sourceVersion=\"7.0\""
                + (device.map { " device=\"\(escape($0))\"" } ?? "")
                + " creationDate=\"2020-06-21 09:00:00 -0700\" startDate=\"\(start)\" endDate=\"\(start)\">\n"
            for (key, value) in metadata { text += "  <MetadataEntry key=\"\(escape(key))\" value=\"\(escape(value))\"/>\n" }
            for record in records { text += record.xml(2) }
            return text + " </Correlation>\n"
        }
    }

    var records: [Record]
    var correlations: [Correlation]

    /// The whole file: the records (with every correlation's records again at the top level, as the Health
    /// app lists them), then the correlations, then a workout.
    var xml: String {
        var text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2020-06-21 10:00:00 -0700"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1960-01-01"/>

        """
        for record in records + correlations.flatMap(\.records) { text += record.xml() }
        for correlation in correlations { text += correlation.xml() }
        return text + " <Workout workoutActivityType=\"HKWorkoutActivityTypeWalking\" duration=\"30\" startDate=\"2020-06-16 09:00:00 -0700\" endDate=\"2020-06-16 09:30:00 -0700\"/>\n</HealthData>\n"
    }

    /// Writes the export to a new temporary directory.
    func write() throws -> URL { try ImportTests.write(xml) }

    static let watch = "<<HKDevice: 0x28039a3f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:7.0>"
    static let scale = "<<HKDevice: 0x2803b1d60>, name:Body+, manufacturer:Withings, model:WBS05>"

    /// A week of a patient's export: heart rates with motion context and time zone, two Withings body-fat
    /// readings with the vendor's keys, a reading with more metadata than the server holds, a blood pressure
    /// pair, and two foods logged at the same minute. `heartRate` and `withSecondFat` give an edited export.
    static func make(heartRate: String = "72", withSecondFat: Bool = true) -> ExportFixture {
        let zone = ("HKTimeZone", "America/Los_Angeles")
        var records: [Record] = [
            .make("HeartRate", value: heartRate, device: watch, metadata: [("HKMetadataKeyHeartRateMotionContext", "1"), zone]),
            .make("HeartRate", start: "2020-06-16 11:00:00 -0700", value: "64", device: watch,
                  metadata: [("HKMetadataKeyHeartRateMotionContext", "2"), zone]),
            .make("BodyFatPercentage", source: "Health Mate", unit: "%", start: "2020-06-15 07:00:00 -0700", value: "0.21",
                  device: scale, metadata: [("HKWasUserEntered", "0"), zone, ("Withings.measureGroupId", "4711"), ("Withings.userId", "17")]),
            .make("StepCount", source: "Alice’s iPhone", unit: "count", start: "2020-06-16 10:00:00 -0700",
                  end: "2020-06-16 10:30:00 -0700", value: "812", metadata: [("HKWasUserEntered", "1")]),
            .make("StepCount", source: "Chatty", unit: "count", start: "2020-06-17 10:00:00 -0700", value: "5",
                  metadata: [("Chatty.blob", String(repeating: "x", count: 4_100))]
                      + (0..<70).map { (String(format: "Chatty.k%02d", $0), "v\($0)") }),
        ]
        if withSecondFat {
            records.append(.make("BodyFatPercentage", source: "Health Mate", unit: "%", start: "2020-06-16 07:00:00 -0700",
                                 value: "0.22", device: scale, metadata: [zone, ("Withings.measureGroupId", "4712")]))
        }
        let cuff = "Withings Cuff"
        let pressure = Correlation(
            type: "HKCorrelationTypeIdentifierBloodPressure", source: cuff, start: "2020-06-16 08:00:00 -0700",
            device: "<<HKDevice: 0x2803b1e00>, name:BPM Connect, manufacturer:Withings>",
            metadata: [zone, ("Withings.measureGroupId", "4800")],
            records: [.make("BloodPressureSystolic", source: cuff, unit: "mmHg", start: "2020-06-16 08:00:00 -0700", value: "120"),
                      .make("BloodPressureDiastolic", source: cuff, unit: "mmHg", start: "2020-06-16 08:00:00 -0700", value: "80")])
        let lunch = "2020-06-16 12:30:00 -0700"
        func food(_ name: String, _ parts: [(String, String, String)]) -> Correlation {
            Correlation(type: "HKCorrelationTypeIdentifierFood", source: "FoodLog", start: lunch, device: nil,
                        metadata: [("HKFoodType", name), ("HKMetadataKeyMeal", "lunch")],
                        records: parts.map { .make($0.0, source: "FoodLog", unit: $0.1, start: lunch, value: $0.2) })
        }
        return ExportFixture(records: records, correlations: [
            pressure,
            food("Apple", [("DietaryEnergyConsumed", "kcal", "95"), ("DietaryCarbohydrates", "g", "25")]),
            food("Yogurt", [("DietaryEnergyConsumed", "kcal", "150")]),
        ])
    }
}

private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}
