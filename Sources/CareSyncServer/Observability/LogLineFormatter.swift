import CareSyncHTTP
import Logging

/// Turns one log event into one line: a JSON object, or readable text.
struct LogLineFormatter: Sendable {
    /// The output format.
    let format: Configuration.LogFormat

    /// Formats an event whose metadata has already passed ``LogPrivacy``.
    func line(
        time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        switch format {
        case .json:
            var line = "{\"time\":\(Self.json(time)),\"level\":\(Self.json(level.rawValue))"
            line += ",\"logger\":\(Self.json(label)),\"message\":\(Self.json(message))"
            for key in metadata.keys.sorted() {
                line += ",\(Self.json(key)):\(Self.json(metadata[key]!))"
            }
            return line + "}"
        case .text:
            var line = "\(time) \(level.rawValue.uppercased()) \(label): \(message)"
            for key in metadata.keys.sorted() {
                line += " \(key)=\(Self.text(metadata[key]!))"
            }
            return line
        }
    }

    /// A metadata value as JSON: strings, nested objects and arrays.
    static func json(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let string): json(string)
        case .stringConvertible(let convertible): json(convertible.description)
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let members):
            "{" + members.keys.sorted().map { json($0) + ":" + json(members[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// A metadata value as readable text; quoted when it holds spaces, quotes or is empty.
    static func text(_ value: Logger.MetadataValue) -> String {
        let plain: String
        switch value {
        case .string(let string): plain = string
        case .stringConvertible(let convertible): plain = convertible.description
        default: return json(value)
        }
        if plain.isEmpty || plain.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) {
            return json(plain)
        }
        return plain
    }

    /// A JSON string literal; control characters escaped so a line stays one line.
    static func json(_ string: String) -> String { JSONText.quoted(string) }
}
