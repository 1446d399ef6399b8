/// A raw setting before it is checked: text from the environment or a flag, or a JSON value from a file.
enum ConfigurationValue: Sendable, Equatable {
    /// Text, as environment variables and flags give it.
    case text(String)
    /// A JSON string.
    case string(String)
    /// A JSON integer.
    case integer(Int)
    /// A JSON number with a fraction or exponent.
    case number(Double)
    /// A JSON boolean.
    case boolean(Bool)
    /// A JSON object (only valid as a section).
    case object([String: ConfigurationValue])
    /// A JSON array (never valid).
    case array
    /// JSON null (never valid).
    case null

    /// The value as written, for error messages.
    var shown: String {
        switch self {
        case .text(let text), .string(let text): text
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        case .object: "{...}"
        case .array: "[...]"
        case .null: "null"
        }
    }
}

extension ConfigurationValue: Decodable {
    /// Decodes any JSON value, keeping integers apart from fractional numbers.
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(ConfigurationValue.self) }
            self = .array
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: ConfigurationValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(ConfigurationValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? single.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// A coding key for any member name.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
