import Crypto

/// The Observation id of a daily total: `steps.<YYYY-MM-DD>.<patient id>` when the patient id is at most 47 characters
/// of A–Z, a–z, 0–9 and '-', else `steps.<YYYY-MM-DD>.h.<the first 40 hex digits of the id's SHA-256>` (a patient id
/// may hold '_', which a FHIR id may not, and be 64 characters). Either is a valid FHIR id of at most 64 characters
/// and holds '.', which a sample's id (a uuid) never does.
public struct DailyTotalID: Hashable, Sendable {
    /// How the id names the patient.
    public enum Patient: Hashable, Sendable {
        /// The patient id itself.
        case id(String)
        /// The digest of a patient id that cannot stand in a FHIR id.
        case digest(String)
    }

    /// The day.
    public var day: CalendarDay
    /// The patient.
    public var patient: Patient

    /// The longest patient id written as itself.
    static let longestPlain = 47
    /// Hex digits of the digest.
    static let digestLength = 40

    /// The id of `patient`'s total on `day`.
    public init(patient: String, day: CalendarDay) {
        self.day = day
        self.patient = Self.isPlain(patient) ? .id(patient) : .digest(Self.digest(patient))
    }

    /// Parses an id this server gives; nil for anything else (a sample's uuid among them).
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 || parts.count == 4, parts[0] == "steps", let day = CalendarDay(parsing: parts[1]) else { return nil }
        self.day = day
        if parts.count == 3, Self.isPlain(parts[2]) {
            patient = .id(parts[2])
        } else if parts.count == 4, parts[2] == "h", parts[3].utf8.count == Self.digestLength,
                  parts[3].utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) {
            patient = .digest(parts[3])
        } else {
            return nil
        }
    }

    /// The id's text.
    public var text: String {
        switch patient {
        case .id(let id): return "steps.\(day).\(id)"
        case .digest(let hex): return "steps.\(day).h.\(hex)"
        }
    }

    /// Whether the id names `patient`.
    public func names(_ patient: String) -> Bool {
        switch self.patient {
        case .id(let id): return id == patient
        case .digest(let hex): return !Self.isPlain(patient) && Self.digest(patient) == hex
        }
    }

    /// Whether `patient` may stand in the id as itself: 1–47 characters of A–Z, a–z, 0–9 and '-'.
    static func isPlain(_ patient: String) -> Bool {
        (1...longestPlain).contains(patient.utf8.count) && patient.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45
        }
    }

    /// The first 40 lower-case hex digits of the SHA-256 of `patient`.
    static func digest(_ patient: String) -> String {
        let hex = SHA256.hash(data: Array(patient.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return String(hex.prefix(digestLength))
    }
}
