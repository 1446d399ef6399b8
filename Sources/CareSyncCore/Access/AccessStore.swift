import Foundation

/// Why an access-store write was refused.
public enum AccessStoreError: Error, Hashable, Sendable {
    /// A record with that id or name exists already.
    case alreadyExists(String)
    /// A referenced patient, care team or token does not exist.
    case missing(String)
    /// The patient id belonged to a patient who was erased: it never names a patient again (docs/security.md "Erasure").
    case erased(String)
}

/// Patients, care teams, tokens and audit records, and the people who sign in (`PersonStore`). Methods are
/// blocking and thread-safe.
public protocol AccessStore: PersonStore, PersonIdentityStore {
    /// Creates a patient; `alreadyExists` when the id is taken.
    func createPatient(_ patient: PatientRecord) throws
    /// The patient, or nil.
    func patient(id: String) throws -> PatientRecord?
    /// Every patient, by id.
    func patients() throws -> [PatientRecord]
    /// Sets a patient's time zone and display name; the updated record, or nil when there is no such patient.
    func updatePatient(id: String, timeZone: String, displayName: String) throws -> PatientRecord?
    /// Creates a care team; `alreadyExists` when the name is taken.
    func createCareTeam(name: String, now: Date) throws
    /// Adds a patient to a team (idempotent); `missing` when either does not exist.
    func addPatient(_ patient: String, toCareTeam name: String) throws
    /// Takes a patient off a team at `time`, counts it in `careTeamLeaves` and keeps `time` as the patient's departure
    /// from the team (`careTeamDepartures`); false when the patient was not on it, `missing` when the team does not
    /// exist. Joining again later gives a new, higher join number.
    func removePatient(_ patient: String, fromCareTeam name: String, at time: Date) throws -> Bool
    /// How many patients were taken off care teams so far, by any process on the database (`ReachWatch` compares it).
    func careTeamLeaves() throws -> Int64
    /// The patients ever taken off the team, each with the last time it was (a patient who joined again since is
    /// still listed); empty for no such team.
    func careTeamDepartures(_ name: String) throws -> [String: Date]
    /// Every care team with its patients, by name.
    func careTeams() throws -> [CareTeamRecord]
    /// The team's patients with the order in which each joined (increasing, never reused: a patient who joins later
    /// has a higher number than every member before it; memberships older than the order have 0); nil for no such team.
    func careTeamMembers(_ name: String) throws -> [String: Int64]?
    /// Whether the patient belongs to any of the named teams.
    func isPatient(_ patient: String, inAnyOf teams: [String]) throws -> Bool
    /// Stores a new token.
    func insertToken(_ token: TokenRecord) throws
    /// The token with this id, or nil.
    func token(id: String) throws -> TokenRecord?
    /// Every token, by creation time.
    func tokens() throws -> [TokenRecord]
    /// Marks a token revoked; false when there is no such token.
    func revokeToken(id: String, at: Date) throws -> Bool
    /// Appends audit records in one transaction and returns once they are durable.
    func commitAudit(_ records: [AuditRecord]) async throws
    /// Each query's audit records, newest first, all from one snapshot (a care team's status asks for every device's).
    func audit(_ queries: [AuditQuery]) throws -> [[AuditRecord]]
}

extension AccessStore {
    /// Audit records, newest first.
    public func audit(_ query: AuditQuery) throws -> [AuditRecord] { try audit([query])[0] }
}
