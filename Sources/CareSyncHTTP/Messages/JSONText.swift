import CareSyncJSON

/// Minimal JSON string quoting, for the bodies the server writes itself and for JSON log lines.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes, control characters, DEL and the line
    /// separators U+2028/U+2029 escaped, so the literal is always one line (`JSONString`, the one escaper).
    public static func quoted(_ text: String) -> String { JSONString.quoted(text) }
}
