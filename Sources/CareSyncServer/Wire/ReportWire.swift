import CareSyncHTTP
import Foundation
import CareSyncCore

/// Weekly reports on the wire: the posted body with every problem named, and the stored report with its chart.
public enum ReportWire {
    /// Validates a posted report: JSON kinds here, the report rules in `WeeklyReportValidator`.
    /// Throws 422 with every problem (a sample's problems carry its index in `samples`).
    public static func decode(_ body: JSONValue, callerSource: String, maxSamples: Int) throws -> WeeklyReportInput {
        guard let o = body.objectValue else {
            throw HTTPError.validation([ValidationProblem(index: nil, field: "", message: "the body must be a JSON object")])
        }
        var problems: [ValidationProblem] = []
        var bad: Set<String> = []
        var badItems: [Int: Set<String>] = [:]
        func kind(_ field: String, _ message: String) { bad.insert(field); problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        var draft = WeeklyReportDraft()
        for field in ["syncIdentifier", "weekStart", "timeZone"] {
            switch o[field] {
            case nil, .null?: break
            case .string(let s)?:
                switch field {
                case "syncIdentifier": draft.syncIdentifier = s
                case "weekStart": draft.weekStart = s
                default: draft.timeZone = s
                }
            case let other?: kind(field, "must be a string, not \(other.kindName)")
            }
        }
        switch o["syncVersion"] {
        case nil, .null?: break
        case let n? where n.numberValue != nil:
            if let v = n.integerValue { draft.syncVersion = v } else { kind("syncVersion", "must be an integer in the 64-bit signed range") }
        case let other?: kind("syncVersion", "must be an integer, not \(other.kindName)")
        }
        switch o["samples"] {
        case .array(let items)?:
            guard items.count <= maxSamples else { throw HTTPError.payloadTooLarge("At most \(maxSamples) samples per report; nothing was stored.") }
            let options = SampleWire.Options(allowsIdentity: false, callerSource: callerSource)
            for (i, item) in items.enumerated() {
                var key: String?
                switch item["key"] {
                case nil, .null?: break
                case .string(let k)?: key = k
                case let other?:
                    badItems[i, default: []].insert("key")
                    problems.append(ValidationProblem(index: i, field: "key", message: "must be a string, not \(other.kindName)"))
                }
                if let d = SampleWire.draft(item, index: i, options: options, problems: &problems) {
                    badItems[i, default: []].formUnion(d.badFields)
                    draft.samples.append(WeeklyReportSampleDraft(key: key, sample: d.sample))
                } else {
                    badItems[i, default: []].insert("")
                    draft.samples.append(WeeklyReportSampleDraft(key: key, sample: SampleDraft()))
                }
            }
        case nil, .null?: kind("samples", "an array of samples is required")
        case let other?: kind("samples", "must be an array, not \(other.kindName)")
        }
        do {
            let input = try WeeklyReportValidator.validate(draft)
            guard problems.isEmpty else { throw HTTPError.validation(problems) }
            return input
        } catch SyncError.validationFailed(let ruleProblems) {
            problems += ruleProblems.filter { p in
                if let i = p.index { let b = badItems[i] ?? []; return !b.contains(p.field) && !b.contains("") }
                return !bad.contains(p.field)
            }
            throw HTTPError.validation(problems.sorted { ($0.index ?? -1, $0.field) < ($1.index ?? -1, $1.field) })
        }
    }

    /// A stored report with its samples (sorted by key) and a chart: one entry per day of the week, empty days included.
    public static func encode(_ r: WeeklyReport, unit: HealthUnit? = nil) -> JSONValue {
        let zone = TimeZone(identifier: r.timeZone) ?? TimeZone(identifier: "UTC")!
        let keyed = r.samples.sorted { $0.key < $1.key }
        var samples: [JSONValue] = []
        var byDay: [CalendarDay: [JSONValue]] = [:]
        for (key, sample) in keyed {
            guard case .object(var o) = SampleWire.encode(sample, unit: unit) else { continue }
            o["key"] = .string(key)
            samples.append(.object(o))
            var point: [String: JSONValue] = ["key": .string(key), "type": .string(sample.type.rawValue), "uuid": .string(sample.uuid.uuidString)]
            point["value"] = o["value"]; point["unit"] = o["unit"] ?? .null
            if let components = o["components"] { point["components"] = components }
            point["start"] = o["start"]; point["end"] = o["end"]
            byDay[CalendarDay.of(sample.start, in: zone), default: []].append(.object(point))
        }
        let chart: [JSONValue] = (0..<7).map { offset in
            let day = r.weekStart.adding(days: offset)
            return ["day": .string(day.description), "values": .array(byDay[day] ?? [])]
        }
        return [
            "syncIdentifier": .string(r.syncIdentifier), "syncVersion": .number(Double(r.syncVersion)),
            "weekStart": .string(r.weekStart.description), "timeZone": .string(r.timeZone),
            "source": .string(r.source), "updatedAt": .string(RFC3339.format(r.updatedAt)),
            "samples": .array(samples), "chart": .array(chart),
        ]
    }
}
