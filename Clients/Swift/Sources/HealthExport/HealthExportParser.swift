import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Streams the `<Record>` elements of an `export.xml` (constant memory: `XMLParser` over a stream).
/// Records nested in a `<Correlation>` are left out (the export lists them at the top level too);
/// other elements (`Workout`, `ActivitySummary` …) are counted as skipped.
public final class HealthExportParser: NSObject, XMLParserDelegate {
    private let onRecord: (HealthRecord) -> Bool
    private var current: HealthRecord?
    private var correlationDepth = 0
    /// Top-level elements that are not records, by name.
    public private(set) var skipped: [String: Int] = [:]
    private var depth = 0
    private var stopped = false
    private var stream: CountingInputStream?
    /// Bytes of the file read so far (the parser reads ahead of the record it hands out by up to a buffer).
    public var bytesRead: Int64 { stream?.bytesRead ?? 0 }

    /// A parser calling `onRecord` for each record in document order; returning false stops parsing.
    public init(onRecord: @escaping (HealthRecord) -> Bool) {
        self.onRecord = onRecord
    }

    /// Parses the file at `url`; throws the parser's error.
    public func parse(contentsOf url: URL) throws {
        guard let stream = CountingInputStream(file: url) else { throw CocoaError(.fileReadNoSuchFile) }
        self.stream = stream
        let parser = XMLParser(stream: stream)
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        if !parser.parse(), !stopped {
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
    }

    public func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                       qualifiedName qName: String?, attributes: [String: String] = [:]) {
        depth += 1
        switch elementName {
        case "Correlation":
            correlationDepth += 1
        case "Record" where correlationDepth == 0:
            current = HealthRecord(type: attributes["type"] ?? "", sourceName: attributes["sourceName"] ?? "",
                                   unit: attributes["unit"], startDate: attributes["startDate"] ?? "",
                                   endDate: attributes["endDate"] ?? "", value: attributes["value"])
        case "MetadataEntry":
            if current != nil, let key = attributes["key"], let value = attributes["value"] { current?.metadata[key] = value }
        default:
            if depth == 2 { skipped[elementName, default: 0] += 1 }
        }
    }

    public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        depth -= 1
        if elementName == "Correlation" {
            correlationDepth -= 1
            skipped["Correlation", default: 0] += 1
        } else if elementName == "Record", let record = current {
            current = nil
            if !onRecord(record) {
                stopped = true
                parser.abortParsing()
            }
        }
    }
}
