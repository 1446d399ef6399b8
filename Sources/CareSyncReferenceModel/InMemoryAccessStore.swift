import Foundation
import CareSyncCore
import CareSyncLocking

/// An `AccessStore` in memory, for tests and for running without a database file.
public final class InMemoryAccessStore: AccessStore {
    private struct State {
        var patients: [String: PatientRecord] = [:]
        var teams: [String: CareTeamRecord] = [:]
        /// The order in which each patient joined each team (`careTeamMembers`), and the last number given.
        var joined: [String: [String: Int64]] = [:]
        var lastJoin: Int64 = 0
        var leaves: Int64 = 0
        /// When each patient was last taken off each team (`careTeamDepartures`), to the millisecond as the databases keep it.
        var departures: [String: [String: Date]] = [:]
        var tokens: [String: TokenRecord] = [:]
        var audit: [AuditRecord] = []
        var erased: Set<String> = []
    }
    private let state = Locked(State())
    /// People, invitations and sessions (`InMemoryAccessStore+People`).
    let peopleState = Locked(PeopleState())

    /// An empty store.
    public init() {}

    public func createPatient(_ patient: PatientRecord) throws {
        try state.withLock { s in
            guard s.patients[patient.id] == nil else { throw AccessStoreError.alreadyExists("patient \(patient.id)") }
            guard !s.erased.contains(patient.id) else { throw AccessStoreError.erased("patient \(patient.id)") }
            s.patients[patient.id] = patient
        }
    }
    public func patient(id: String) throws -> PatientRecord? { state.withLock { $0.patients[id] } }
    public func patients() throws -> [PatientRecord] { state.withLock { $0.patients.values.sorted { $0.id < $1.id } } }
    public func updatePatient(id: String, timeZone: String, displayName: String) throws -> PatientRecord? {
        state.withLock { s in
            guard var patient = s.patients[id] else { return nil }
            patient.timeZone = timeZone
            patient.displayName = displayName
            s.patients[id] = patient
            return patient
        }
    }
    public func createCareTeam(name: String, now: Date) throws {
        try state.withLock { s in
            guard s.teams[name] == nil else { throw AccessStoreError.alreadyExists("care team \(name)") }
            s.teams[name] = CareTeamRecord(name: name, patients: [], createdAt: now)
        }
    }
    public func addPatient(_ patient: String, toCareTeam name: String) throws {
        try state.withLock { s in
            guard s.patients[patient] != nil else { throw AccessStoreError.missing("patient \(patient)") }
            guard var team = s.teams[name] else { throw AccessStoreError.missing("care team \(name)") }
            if !team.patients.contains(patient) {
                team.patients.append(patient); team.patients.sort()
                s.lastJoin += 1
                s.joined[name, default: [:]][patient] = s.lastJoin
            }
            s.teams[name] = team
        }
    }
    public func removePatient(_ patient: String, fromCareTeam name: String, at time: Date) throws -> Bool {
        try state.withLock { s in
            guard var team = s.teams[name] else { throw AccessStoreError.missing("care team \(name)") }
            guard let i = team.patients.firstIndex(of: patient) else { return false }
            team.patients.remove(at: i)
            s.teams[name] = team
            s.joined[name]?[patient] = nil
            s.departures[name, default: [:]][patient] = SyncRules.date(milliseconds: SyncRules.milliseconds(time))
            s.leaves += 1
            return true
        }
    }
    public func careTeamLeaves() throws -> Int64 { state.withLock { $0.leaves } }
    public func careTeamDepartures(_ name: String) throws -> [String: Date] { state.withLock { $0.departures[name] ?? [:] } }
    public func careTeams() throws -> [CareTeamRecord] { state.withLock { $0.teams.values.sorted { $0.name < $1.name } } }
    public func careTeamMembers(_ name: String) throws -> [String: Int64]? {
        state.withLock { s in s.teams[name].map { team in Dictionary(uniqueKeysWithValues: team.patients.map { ($0, s.joined[name]?[$0] ?? 0) }) } }
    }
    public func isPatient(_ patient: String, inAnyOf teams: [String]) throws -> Bool {
        state.withLock { s in teams.contains { s.teams[$0]?.patients.contains(patient) ?? false } }
    }
    public func insertToken(_ token: TokenRecord) throws {
        try state.withLock { s in
            guard s.tokens[token.id] == nil else { throw AccessStoreError.alreadyExists("token \(token.id)") }
            s.tokens[token.id] = token
        }
    }
    public func token(id: String) throws -> TokenRecord? { state.withLock { $0.tokens[id] } }
    public func tokens() throws -> [TokenRecord] { state.withLock { $0.tokens.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) } } }
    public func revokeToken(id: String, at: Date) throws -> Bool {
        state.withLock { s in
            guard var t = s.tokens[id] else { return false }
            if t.revokedAt == nil { t.revokedAt = at }
            s.tokens[id] = t
            return true
        }
    }
    public func commitAudit(_ records: [AuditRecord]) async throws { append(records) }

    /// Stores audit records at once (a sync write's own, as its transaction commits).
    func append(_ records: [AuditRecord]) {
        state.withLock { s in
            for var r in records {
                r.id = Int64(s.audit.count + 1)
                s.audit.append(r)
            }
        }
    }
    public func audit(_ queries: [AuditQuery]) throws -> [[AuditRecord]] {
        state.withLock { s in
            queries.map { query in
                Array(s.audit.reversed().lazy.filter { r in
                    (query.patient == nil || r.patient == query.patient) && (query.tokenID == nil || r.tokenID == query.tokenID)
                        && (query.before == nil || r.id < query.before!)
                }.prefix(query.limit))
            }
        }
    }

    /// The ids of the patient's tokens, sorted.
    func tokenIDs(of patient: String) -> [String] {
        state.withLock { s in s.tokens.values.filter { $0.patient == patient }.map(\.id).sorted() }
    }

    /// Removes the patient, their care-team memberships and tokens, remembers the id as erased and appends `receipt`'s
    /// audit records (from `counts`, which gets this store's own kinds); false when there is no such patient.
    func erase(_ request: ErasureRequest, counts: inout [ErasedCount], receipt: (inout [ErasedCount]) -> [AuditRecord]) -> Bool {
        state.withLock { s in
            let patient = request.patient
            guard s.patients.removeValue(forKey: patient) != nil else { return false }
            var memberships = 0
            for (name, team) in s.teams where team.patients.contains(patient) {
                s.teams[name]!.patients.removeAll { $0 == patient }
                memberships += 1
            }
            var departures = 0
            for name in s.departures.keys where s.departures[name]?.removeValue(forKey: patient) != nil { departures += 1 }
            let tokens = s.tokens.values.filter { $0.patient == patient }.map(\.id)
            for id in tokens { s.tokens[id] = nil }
            s.erased.insert(patient)
            counts += [ErasedCount(kind: "careTeamMemberships", count: memberships), ErasedCount(kind: "careTeamDepartures", count: departures),
                       ErasedCount(kind: "tokenCareTeams", count: 0),
                       ErasedCount(kind: "tokens", count: tokens.count), ErasedCount(kind: "patient", count: 1)]
            for var r in receipt(&counts) {
                r.id = Int64(s.audit.count + 1)
                s.audit.append(r)
            }
            return true
        }
    }

    /// Whether the id was erased.
    func wasErased(_ patient: String) -> Bool { state.withLock { $0.erased.contains(patient) } }

    /// How many ids were erased.
    func erasedCount() -> Int { state.withLock { $0.erased.count } }
}
