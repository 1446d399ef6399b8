import CareSyncCore

/// What a source may be (a token's `source`, a `source=` query): 1–200 bytes, no white space, no control or format
/// characters (Unicode Cc, Cf, Zl, Zp: NUL, ESC, U+202E, zero-width spaces…), which hide or reorder text where it shows.
enum SourceRule {
    /// What is wrong with `source`, or nil when it meets the rule.
    static func problem(_ source: String) -> String? {
        if source.isEmpty || source.utf8.count > 200 { return "a source is 1–200 bytes" }
        if InvisibleCharacters.occur(in: source) {
            return "a source must not contain control or format characters (Unicode categories Cc, Cf, Zl, Zp)"
        }
        if source.contains(where: \.isWhitespace) { return "a source must not contain spaces" }
        return nil
    }

    /// Why `holder`, an existing token, keeps a token of `spec` from using its source, or nil when both are one
    /// writer: tokens of one role with the same source are one writer (a replacement, or one therapist's tokens
    /// for several care teams), but a device's source is its patient's alone. Revoked and expired tokens count:
    /// their samples keep the source, so it is never handed to another writer.
    static func conflict(_ spec: TokenSpec, with holder: TokenRecord) -> String? {
        if holder.role != spec.role { return "it is the source of \(holder.role.rawValue) token \(holder.id)" }
        if spec.role == .device, holder.patient != spec.patient {
            return "it is the source of device token \(holder.id) of another patient"
        }
        return nil
    }
}
