import Foundation

/// A configuration that cannot be used; its description is one line naming the key and the source.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key that is not a CareSync setting.
    case unknownKey(key: String, source: ConfigurationSource)
    /// A value the key does not accept; `expected` says what it does accept.
    case invalidValue(key: String, value: String, source: ConfigurationSource, expected: String)
    /// Two settings that each pass alone but not together; `reason` says why and what to set.
    case conflict(key: String, reason: String)
    /// The configuration file cannot be read.
    case unreadableFile(path: String, reason: String)
    /// The configuration file is not a JSON object.
    case malformedFile(path: String, reason: String)

    /// The key the error is about, if any.
    public var key: String? {
        switch self {
        case .unknownKey(let key, _), .invalidValue(let key, _, _, _), .conflict(let key, _): key
        case .unreadableFile, .malformedFile: nil
        }
    }

    /// One line for the operator, such as
    /// `configuration: invalid value "abc" for port (environment variable CARESYNC_PORT): expected an integer in 0...65535`.
    public var description: String {
        switch self {
        case .unknownKey(let key, let source):
            "configuration: unknown key \"\(key)\" (\(source))"
        case .invalidValue(let key, let value, let source, let expected):
            "configuration: invalid value \(Self.quoted(value)) for \(key) (\(source)): expected \(expected)"
        case .conflict(let key, let reason):
            "configuration: \(key) \(reason)"
        case .unreadableFile(let path, let reason):
            "configuration: cannot read config file \(path): \(reason)"
        case .malformedFile(let path, let reason):
            "configuration: config file \(path) is not valid: \(reason)"
        }
    }

    /// Quotes a value for a one-line message, cutting it short and escaping line breaks.
    private static func quoted(_ value: String) -> String {
        var shown = value.count > 80 ? String(value.prefix(77)) + "..." : value
        shown = shown.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        return "\"\(shown)\""
    }
}
