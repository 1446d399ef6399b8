import Foundation
import CareSyncCore

/// Weekly reports on the wire: the posted body with every problem named, and the stored report with its chart.
public enum ReportWire {
    /// Validates a posted report; throws 422 with every problem (sample problems carry their index).
    public static func decode(_ body: JSONValue, callerSource: String, maxSamples: Int) throws -> WeeklyReportInput {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        guard let o = body.objectValue else { throw APIError.validation([ValidationProblem(index: nil, field: "", message: "the body must be a JSON object")]) }
        var syncIdentifier: String?
        switch o["syncIdentifier"] {
        case .string(let s)? where !s.isEmpty && s.utf8.count <= 256: syncIdentifier = s
        case nil, .null?: fail("syncIdentifier", "is required")
        default: fail("syncIdentifier", "must be a string of 1–256 bytes")
        }
        var syncVersion: Int64?
        switch o["syncVersion"] {
        case .number(let n)?:
            if let v = SampleWire.integer(n), v >= 0 { syncVersion = v } else { fail("syncVersion", "must be a non-negative integer") }
        case nil, .null?: fail("syncVersion", "is required")
        case let other?: fail("syncVersion", "must be an integer, not \(other.kindName)")
        }
        var weekStart: CalendarDay?
        if let s = o["weekStart"]?.stringValue {
            if let d = RFC3339.parseDay(s) { weekStart = d } else { fail("weekStart", "must be a day YYYY-MM-DD") }
        } else { fail("weekStart", "is required, as YYYY-MM-DD") }
        var zone: TimeZone?
        var zoneName = "UTC"
        if let s = o["timeZone"]?.stringValue {
            if let z = TimeZone(identifier: s) { zone = z; zoneName = s } else { fail("timeZone", "unknown IANA time zone '\(s)'") }
        } else if o["timeZone"] == nil || o["timeZone"] == .null { zone = TimeZone(identifier: "UTC") }
        else { fail("timeZone", "must be an IANA time zone name") }
        var samples: [WeeklyReportSampleInput] = []
        if let items = o["samples"]?.arrayValue {
            guard items.count <= maxSamples else { throw APIError.payloadTooLarge("At most \(maxSamples) samples per report.") }
            var keys = Set<String>()
            let options = SampleWire.Options(allowsIdentity: false, callerSource: callerSource)
            let week = weekStart.flatMap { ws in zone.map { z in (RFC3339.startOfDay(ws, in: z), RFC3339.startOfDay(RFC3339.adding(7, to: ws), in: z)) } }
            for (i, item) in items.enumerated() {
                var key: String?
                switch item["key"] {
                case .string(let k)? where !k.isEmpty && k.utf8.count <= 128:
                    if keys.insert(k).inserted { key = k } else { problems.append(ValidationProblem(index: i, field: "key", message: "key '\(k)' appears twice in the report")) }
                case nil, .null?: problems.append(ValidationProblem(index: i, field: "key", message: "is required"))
                default: problems.append(ValidationProblem(index: i, field: "key", message: "must be a string of 1–128 bytes"))
                }
                guard let sample = SampleWire.decode(item, index: i, options: options, problems: &problems) else { continue }
                if let (from, to) = week, sample.start < from || sample.end > to {
                    problems.append(ValidationProblem(index: i, field: "start",
                        message: "the sample must lie inside the report's week (\(RFC3339.formatDay(weekStart!)) for 7 days in \(zoneName))"))
                    continue
                }
                if let key { samples.append(WeeklyReportSampleInput(key: key, sample: sample)) }
            }
        } else {
            fail("samples", "an array of samples is required")
        }
        guard problems.isEmpty, let syncIdentifier, let syncVersion, let weekStart else { throw APIError.validation(problems) }
        return WeeklyReportInput(syncIdentifier: syncIdentifier, syncVersion: syncVersion, weekStart: weekStart,
                                 timeZone: zoneName, samples: samples)
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
            point["start"] = o["start"]; point["end"] = o["end"]
            byDay[RFC3339.day(of: sample.start, in: zone), default: []].append(.object(point))
        }
        let chart: [JSONValue] = (0..<7).map { offset in
            let day = RFC3339.adding(offset, to: r.weekStart)
            return ["day": .string(RFC3339.formatDay(day)), "values": .array(byDay[day] ?? [])]
        }
        return [
            "syncIdentifier": .string(r.syncIdentifier), "syncVersion": .number(Double(r.syncVersion)),
            "weekStart": .string(RFC3339.formatDay(r.weekStart)), "timeZone": .string(r.timeZone),
            "source": .string(r.source), "updatedAt": .string(RFC3339.format(r.updatedAt)),
            "samples": .array(samples), "chart": .array(chart),
        ]
    }
}
