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

    /// Why `holder`, an existing token, keeps a token of `spec` from using its source, or nil when the two never
    /// write one patient's data as different writers. Tokens of one role with the same source are one writer (a
    /// replacement phone, one therapist's tokens for several care teams); device tokens of different patients never
    /// write the same patient, so the same app on every patient's phone may carry one source (HealthKit's sources
    /// are bundle ids). Another role with the source is refused. Revoked and expired tokens count: their samples
    /// keep the source, so it is never handed to another writer.
    static func conflict(_ spec: TokenSpec, with holder: TokenRecord) -> String? {
        if holder.role != spec.role { return "it is the source of \(holder.role.rawValue) token \(holder.id)" }
        return nil
    }
}
