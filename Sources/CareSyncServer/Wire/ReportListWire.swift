import CareSyncCore
import Foundation

/// A page of the report list on the wire: whole reports or summaries, and the cursor of the next page.
enum ReportListWire {
    /// A report without its samples and chart, with the count of samples the caller may read.
    static func summary(_ r: WeeklyReport) -> JSONValue {
        guard case .object(var o) = ReportWire.encode(WeeklyReport(
            syncIdentifier: r.syncIdentifier, syncVersion: r.syncVersion, weekStart: r.weekStart, timeZone: r.timeZone,
            source: r.source, samples: [:], updatedAt: r.updatedAt)) else { return .null }
        o["samples"] = nil
        o["chart"] = nil
        o["sampleCount"] = .number(Double(r.samples.count))
        return .object(o)
    }

    /// The opaque cursor of a position: base64url of the JSON array [weekStart, syncIdentifier, source].
    static func cursor(_ p: ReportPosition) -> String {
        let json = JSONValue.array([.string(p.weekStart.description), .string(p.syncIdentifier), .string(p.source)]).serialized()
        return Data(json).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The position a cursor names, or nil when it is not one this server made.
    static func position(_ cursor: String) -> ReportPosition? {
        guard cursor.utf8.count <= 4_096, cursor.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let value = try? JSONValue.parse(Array(data)),
              let parts = value.arrayValue, parts.count == 3,
              let day = parts[0].stringValue.flatMap(CalendarDay.init(parsing:)),
              let id = parts[1].stringValue, let source = parts[2].stringValue else { return nil }
        return ReportPosition(weekStart: day, syncIdentifier: id, source: source)
    }
}
