/// One value of a FHIR token search parameter (`code`): `system|code`, `code`, `|code` or `system|`.
public struct FHIRTokenParameter: Hashable, Sendable {
    /// The system to match; nil matches any system, "" only codes without one.
    public var system: String?
    /// The code to match; nil matches any code of `system`.
    public var code: String?

    /// Parses one token; nil when it is empty or names neither a system nor a code.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        if let bar = text.firstIndex(of: "|") {
            let s = String(text[..<bar]), c = String(text[text.index(after: bar)...])
            guard !(s.isEmpty && c.isEmpty) else { return nil }
            system = s; code = c.isEmpty ? nil : c
        } else {
            system = nil; code = text
        }
    }

    /// Whether `coding` matches this token.
    public func matches(_ coding: FHIRCoding) -> Bool {
        if let system, system != coding.system { return false }
        if let code, code != coding.code { return false }
        return true
    }

    /// The catalogue types whose Observation code matches this token.
    public var types: Set<SampleType> {
        Set(SampleType.all.filter { ObservationCodeTable.code(for: $0).codings.contains(where: matches) })
    }

    /// Whether this token matches a daily total's code (`DailyTotalCode`).
    public var matchesDailyTotals: Bool { DailyTotalCode.codings.contains(where: matches) }

    /// Whether this token matches daily totals and no sample type: `41950-7`, `stepCount.daily`, either with its system,
    /// or `urn:caresync:daily-total|`. Such a token asks for daily totals; `http://loinc.org|` (every LOINC code) does not.
    public var namesDailyTotals: Bool { matchesDailyTotals && types.isEmpty }
}
