/// Characters no id or source may hold: controls (Unicode category Cc: NUL, ESC, CR, LF…), formats (Cf: U+202E,
/// zero-width spaces…) and line and paragraph separators (Zl, Zp). They hide or reorder text in logs and pages.
public enum InvisibleCharacters {
    /// Whether `text` holds at least one of them.
    public static func occur(in text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }
}
