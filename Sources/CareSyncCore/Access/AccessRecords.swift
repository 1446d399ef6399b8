import Foundation

/// A patient known to the server.
public struct PatientRecord: Hashable, Sendable {
    /// The operator's id for the patient (as used in URLs).
    public var id: String
    /// The patient's IANA time zone, the default for reports and statistics.
    public var timeZone: String
    /// When the patient was created.
    public var createdAt: Date
    /// The name people see for the patient (set by an admin; empty when none is set).
    public var displayName: String
    /// A patient record.
    public init(id: String, timeZone: String, createdAt: Date, displayName: String = "") {
        self.id = id; self.timeZone = timeZone; self.createdAt = createdAt; self.displayName = displayName
    }
}

/// A care team: a named set of patients that its therapists may read.
public struct CareTeamRecord: Hashable, Sendable {
    /// The team's unique name.
    public var name: String
    /// The ids of its patients, sorted.
    public var patients: [String]
    /// When the team was created.
    public var createdAt: Date
    /// A care team record.
    public init(name: String, patients: [String], createdAt: Date) { self.name = name; self.patients = patients; self.createdAt = createdAt }
}

/// A stored token: everything but the secret, of which only a SHA-256 hash is kept.
public struct TokenRecord: Hashable, Sendable {
    /// The public id, part of the token string and of audit records.
    public var id: String
    /// SHA-256 of the whole token string.
    public var secretHash: [UInt8]
    /// What the token may do.
    public var role: Role
    /// The patient of a device token.
    public var patient: String?
    /// The care teams of a therapist token.
    public var careTeams: [String]
    /// The source stamped on everything this token writes.
    public var source: String
    /// Types it may read; nil means all.
    public var readTypes: Set<SampleType>?
    /// Types it may write; nil means all.
    public var writeTypes: Set<SampleType>?
    /// When it was created.
    public var createdAt: Date
    /// When it stops working; nil means never.
    public var expiresAt: Date?
    /// When it was revoked; nil while it is valid.
    public var revokedAt: Date?

    /// A token record.
    public init(id: String, secretHash: [UInt8], role: Role, patient: String?, careTeams: [String], source: String,
                readTypes: Set<SampleType>?, writeTypes: Set<SampleType>?, createdAt: Date, expiresAt: Date?, revokedAt: Date? = nil) {
        self.id = id; self.secretHash = secretHash; self.role = role; self.patient = patient; self.careTeams = careTeams
        self.source = source; self.readTypes = readTypes; self.writeTypes = writeTypes
        self.createdAt = createdAt; self.expiresAt = expiresAt; self.revokedAt = revokedAt
    }

    /// Whether the token still opens requests at `now`: not revoked and not expired.
    public func isUsable(at now: Date) -> Bool { revokedAt == nil && expiresAt.map { $0 > now } ?? true }

    /// Every patient's device tokens among `tokens`, revoked and expired ones included (what they wrote still counts).
    public static func devicesByPatient(_ tokens: [TokenRecord]) -> [String: [TokenRecord]] {
        Dictionary(grouping: tokens.filter { $0.role == .device && $0.patient != nil }) { $0.patient! }
    }
}

/// One audit record: who touched which patient's data, how, and with what result. No sample values.
public struct AuditRecord: Hashable, Sendable {
    /// Assigned by the store, increasing.
    public var id: Int64
    /// When the request was answered.
    public var time: Date
    /// The caller's token id.
    public var tokenID: String
    /// The caller's role.
    public var role: Role
    /// The patient touched, if any.
    public var patient: String?
    /// What was done, such as `samples.upsert` or `changes.read`.
    public var action: String
    /// How many items the request carried or returned.
    public var count: Int
    /// The HTTP status answered.
    public var status: Int
    /// An audit record; the store assigns `id`.
    public init(id: Int64 = 0, time: Date, tokenID: String, role: Role, patient: String?, action: String, count: Int, status: Int) {
        self.id = id; self.time = time; self.tokenID = tokenID; self.role = role; self.patient = patient
        self.action = action; self.count = count; self.status = status
    }
}

/// A filter over audit records, newest first.
public struct AuditQuery: Hashable, Sendable {
    /// Only this patient's records.
    public var patient: String?
    /// Only this token's records.
    public var tokenID: String?
    /// Only records with an id below this (for paging backwards).
    public var before: Int64?
    /// At most this many records.
    public var limit: Int
    /// A filter.
    public init(patient: String? = nil, tokenID: String? = nil, before: Int64? = nil, limit: Int = 100) {
        self.patient = patient; self.tokenID = tokenID; self.before = before; self.limit = limit
    }
}
