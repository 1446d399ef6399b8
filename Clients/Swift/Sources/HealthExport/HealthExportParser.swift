import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Streams the `<Record>` and `<Correlation>` elements of an `export.xml` (`XMLParser` over a stream).
///
/// The export lists a correlation's records twice: nested in the `<Correlation>` and again at the top
/// level. Top-level records of a type a correlation can hold (blood pressure, dietary) are therefore held
/// until the end of the document and handed out only when no correlation claimed them, so each reading
/// is imported once. Memory grows with those records only; every other record streams through.
/// Other elements (`Workout`, `ActivitySummary` …) are counted as skipped.
public final class HealthExportParser: NSObject, XMLParserDelegate {
    /// The attributes that tell a nested record and its top-level copy are the same reading.
    struct CopyKey: Hashable {
        var type, sourceName, unit, startDate, endDate, value: String?
        init(_ r: HealthRecord) {
            (type, sourceName, unit, startDate, endDate, value) = (r.type, r.sourceName, r.unit, r.startDate, r.endDate, r.value)
        }
    }

    private let onItem: (HealthItem) -> Bool
    private var current: HealthRecord?
    private var correlation: HealthCorrelation?
    private var held: [HealthRecord] = []
    private var claimed: [CopyKey: Int] = [:]
    /// Top-level elements that are not records or correlations, by name.
    public private(set) var skipped: [String: Int] = [:]
    private var depth = 0
    private var stopped = false
    private var stream: CountingInputStream?
    /// Bytes of the file read so far (the parser reads ahead of the record it hands out by up to a buffer).
    public var bytesRead: Int64 { stream?.bytesRead ?? 0 }

    /// A parser calling `onItem` for each item; returning false stops parsing.
    public init(onItem: @escaping (HealthItem) -> Bool) {
        self.onItem = onItem
    }

    /// Whether a correlation may hold records of this HealthKit type (so their top-level copies are held).
    static func isComponentType(_ type: String) -> Bool {
        type == "HKQuantityTypeIdentifierBloodPressureSystolic" || type == "HKQuantityTypeIdentifierBloodPressureDiastolic"
            || type.hasPrefix("HKQuantityTypeIdentifierDietary")
    }

    /// Parses the file at `url`; throws the parser's error.
    public func parse(contentsOf url: URL) throws {
        guard let stream = CountingInputStream(file: url) else { throw CocoaError(.fileReadNoSuchFile) }
        self.stream = stream
        let parser = XMLParser(stream: stream)
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        if !parser.parse() {
            if stopped { return }
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
        for record in held {
            let key = CopyKey(record)
            if let count = claimed[key], count > 0 {
                claimed[key] = count - 1
            } else if !onItem(.record(record)) {
                return
            }
        }
        held = []
    }

    public func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                       qualifiedName qName: String?, attributes: [String: String] = [:]) {
        depth += 1
        switch elementName {
        case "Correlation" where depth == 2:
            correlation = HealthCorrelation(type: attributes["type"] ?? "", sourceName: attributes["sourceName"] ?? "",
                                            startDate: attributes["startDate"] ?? "", endDate: attributes["endDate"] ?? "",
                                            device: attributes["device"])
        case "Record" where depth == 2 || (depth == 3 && correlation != nil):
            current = HealthRecord(type: attributes["type"] ?? "", sourceName: attributes["sourceName"] ?? "",
                                   unit: attributes["unit"], startDate: attributes["startDate"] ?? "",
                                   endDate: attributes["endDate"] ?? "", value: attributes["value"], device: attributes["device"])
        case "MetadataEntry":
            guard let key = attributes["key"], let value = attributes["value"] else { break }
            if current != nil { current?.metadata[key] = value } else if depth == 3 { correlation?.metadata[key] = value }
        default:
            if depth == 2 { skipped[elementName, default: 0] += 1 }
        }
    }

    public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        defer { depth -= 1 }
        var item: HealthItem?
        if elementName == "Record", let record = current {
            current = nil
            if depth == 3 {
                correlation?.records.append(record)
            } else if Self.isComponentType(record.type) {
                held.append(record)
            } else {
                item = .record(record)
            }
        } else if elementName == "Correlation", depth == 2, let done = correlation {
            correlation = nil
            for record in done.records { claimed[CopyKey(record), default: 0] += 1 }
            item = .correlation(done)
        }
        if let item, !onItem(item) {
            stopped = true
            parser.abortParsing()
        }
    }
}
