import Foundation
import CareSyncCore

/// Patients, care teams, tokens and audit records in the SQLite database (migration 0010).
public final class SQLiteAccessStore: AccessStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    static func ms(_ d: Date) -> Int64 { Int64((d.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    public func createPatient(_ p: PatientRecord) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM patients WHERE id = ?", [.text(p.id)]) == nil else {
                throw AccessStoreError.alreadyExists("patient \(p.id)")
            }
            guard try db.scalarInt64("SELECT 1 FROM erased_patients WHERE id = ?", [.text(p.id)]) == nil else {
                throw AccessStoreError.erased("patient \(p.id)")
            }
            try db.execute("INSERT INTO patients (id, time_zone, created_at, display_name) VALUES (?, ?, ?, ?)",
                           [.text(p.id), .text(p.timeZone), .integer(Self.ms(p.createdAt)), .text(p.displayName)])
        }
    }

    public func patient(id: String) throws -> PatientRecord? {
        try database.read { db in
            try db.fetchOne("SELECT id, time_zone, created_at, display_name FROM patients WHERE id = ?", [.text(id)], Self.patientRow)
        }
    }

    public func patients() throws -> [PatientRecord] {
        try database.read { db in try db.fetchAll("SELECT id, time_zone, created_at, display_name FROM patients ORDER BY id", [], Self.patientRow) }
    }

    static func patientRow(_ s: Statement) -> PatientRecord {
        PatientRecord(id: s.string(0), timeZone: s.string(1), createdAt: date(s.int64(2)), displayName: s.string(3))
    }

    public func updatePatient(id: String, timeZone: String, displayName: String) throws -> PatientRecord? {
        try database.write { db in
            try db.execute("UPDATE patients SET time_zone = ?, display_name = ? WHERE id = ?", [.text(timeZone), .text(displayName), .text(id)])
            return try db.fetchOne("SELECT id, time_zone, created_at, display_name FROM patients WHERE id = ?", [.text(id)], Self.patientRow)
        }
    }

    public func createCareTeam(name: String, now: Date) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM care_teams WHERE name = ?", [.text(name)]) == nil else {
                throw AccessStoreError.alreadyExists("care team \(name)")
            }
            try db.execute("INSERT INTO care_teams (name, created_at) VALUES (?, ?)", [.text(name), .integer(Self.ms(now))])
        }
    }

    public func addPatient(_ patient: String, toCareTeam name: String) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM patients WHERE id = ?", [.text(patient)]) != nil else {
                throw AccessStoreError.missing("patient \(patient)")
            }
            guard try db.scalarInt64("SELECT 1 FROM care_teams WHERE name = ?", [.text(name)]) != nil else {
                throw AccessStoreError.missing("care team \(name)")
            }
            guard try db.scalarInt64("SELECT 1 FROM care_team_patients WHERE care_team = ? AND patient_id = ?", [.text(name), .text(patient)]) == nil else { return }
            // One writer: the counter's next value is above every membership made before, and never comes back.
            try db.execute("UPDATE care_team_joins SET last = last + 1")
            try db.execute("INSERT INTO care_team_patients (care_team, patient_id, joined) VALUES (?, ?, (SELECT last FROM care_team_joins))",
                           [.text(name), .text(patient)])
        }
    }

    public func removePatient(_ patient: String, fromCareTeam name: String, at time: Date) throws -> Bool {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM care_teams WHERE name = ?", [.text(name)]) != nil else {
                throw AccessStoreError.missing("care team \(name)")
            }
            try db.execute("DELETE FROM care_team_patients WHERE care_team = ? AND patient_id = ?", [.text(name), .text(patient)])
            guard db.changes > 0 else { return false }
            try db.execute("UPDATE care_team_leaves SET last = last + 1")
            try db.execute("""
                INSERT INTO care_team_departures (care_team, patient_id, left_at) VALUES (?, ?, ?)
                ON CONFLICT (care_team, patient_id) DO UPDATE SET left_at = excluded.left_at
                """, [.text(name), .text(patient), .integer(Self.ms(time))])
            return true
        }
    }

    public func careTeamDepartures(_ name: String) throws -> [String: Date] {
        try database.read { db in
            let rows = try db.fetchAll("SELECT patient_id, left_at FROM care_team_departures WHERE care_team = ?", [.text(name)]) {
                ($0.string(0), Self.date($0.int64(1)))
            }
            return Dictionary(uniqueKeysWithValues: rows)
        }
    }

    public func careTeamLeaves() throws -> Int64 {
        try database.read { db in try db.scalarInt64("SELECT last FROM care_team_leaves", []) ?? 0 }
    }

    public func careTeamMembers(_ name: String) throws -> [String: Int64]? {
        try database.read { db in
            guard try db.scalarInt64("SELECT 1 FROM care_teams WHERE name = ?", [.text(name)]) != nil else { return nil }
            let rows = try db.fetchAll("SELECT patient_id, joined FROM care_team_patients WHERE care_team = ?", [.text(name)]) { ($0.string(0), $0.int64(1)) }
            return Dictionary(uniqueKeysWithValues: rows)
        }
    }

    public func careTeams() throws -> [CareTeamRecord] {
        try database.read { db in
            let teams = try db.fetchAll("SELECT name, created_at FROM care_teams ORDER BY name", []) { s in (s.string(0), s.int64(1)) }
            let members = try db.fetchAll("SELECT care_team, patient_id FROM care_team_patients ORDER BY care_team, patient_id", []) { s in (s.string(0), s.string(1)) }
            let grouped = Dictionary(grouping: members, by: { $0.0 })
            return teams.map { CareTeamRecord(name: $0.0, patients: grouped[$0.0]?.map(\.1) ?? [], createdAt: Self.date($0.1)) }
        }
    }

    public func isPatient(_ patient: String, inAnyOf teams: [String]) throws -> Bool {
        guard !teams.isEmpty else { return false }
        return try database.read { db in
            for team in teams where try db.scalarInt64("SELECT 1 FROM care_team_patients WHERE care_team = ? AND patient_id = ?",
                                                       [.text(team), .text(patient)]) != nil {
                return true
            }
            return false
        }
    }

    public func insertToken(_ t: TokenRecord) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM tokens WHERE id = ?", [.text(t.id)]) == nil else {
                throw AccessStoreError.alreadyExists("token \(t.id)")
            }
            try db.execute("""
                INSERT INTO tokens (id, secret_hash, role, patient_id, source, read_types, write_types, created_at, expires_at, revoked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(t.id), .blob(t.secretHash), .text(t.role.rawValue), .text(t.patient), .text(t.source),
                      .text(Self.typeList(t.readTypes)), .text(Self.typeList(t.writeTypes)), .integer(Self.ms(t.createdAt)),
                      .integer(t.expiresAt.map(Self.ms)), .integer(t.revokedAt.map(Self.ms))])
            for team in t.careTeams {
                try db.execute("INSERT INTO token_care_teams (token_id, care_team) VALUES (?, ?)", [.text(t.id), .text(team)])
            }
        }
    }

    static let tokenColumns = "id, secret_hash, role, patient_id, source, read_types, write_types, created_at, expires_at, revoked_at"

    public func token(id: String) throws -> TokenRecord? {
        try database.read { db in
            guard var t = try db.fetchOne("SELECT \(Self.tokenColumns) FROM tokens WHERE id = ?", [.text(id)], Self.tokenRow) else { return nil }
            t.careTeams = try db.fetchAll("SELECT care_team FROM token_care_teams WHERE token_id = ? ORDER BY care_team", [.text(id)]) { $0.string(0) }
            return t
        }
    }

    public func tokens() throws -> [TokenRecord] {
        try database.read { db in
            let list = try db.fetchAll("SELECT \(Self.tokenColumns) FROM tokens ORDER BY created_at, id", [], Self.tokenRow)
            let teams = try db.fetchAll("SELECT token_id, care_team FROM token_care_teams ORDER BY care_team", []) { ($0.string(0), $0.string(1)) }
            let grouped = Dictionary(grouping: teams, by: { $0.0 })
            return list.map { t in var t = t; t.careTeams = grouped[t.id]?.map(\.1) ?? []; return t }
        }
    }

    static func tokenRow(_ s: Statement) -> TokenRecord {
        TokenRecord(id: s.string(0), secretHash: s.bytes(1), role: Role(rawValue: s.string(2)) ?? .device, patient: s.optionalString(3),
                    careTeams: [], source: s.string(4), readTypes: types(s.optionalString(5)), writeTypes: types(s.optionalString(6)),
                    createdAt: date(s.int64(7)), expiresAt: s.optionalInt64(8).map(date), revokedAt: s.optionalInt64(9).map(date))
    }

    static func typeList(_ set: Set<SampleType>?) -> String? { set.map { $0.map(\.rawValue).sorted().joined(separator: ",") } }
    static func types(_ text: String?) -> Set<SampleType>? {
        text.map { Set($0.split(separator: ",").compactMap { SampleType(rawValue: String($0)) }) }
    }

    public func revokeToken(id: String, at: Date) throws -> Bool {
        try database.write { db in
            try db.execute("UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", [.integer(Self.ms(at)), .text(id)])
            return db.changes > 0
        }
    }

    /// Group-committed with whatever else is being written, so a busy server pays one commit for many records.
    public func commitAudit(_ records: [AuditRecord]) async throws {
        guard !records.isEmpty else { return }
        try await database.asyncWrite { db in try Self.insertAudit(records, into: db) }
    }

    /// Inserts audit records inside the caller's write transaction (a sync write's own, for one), in order: runs of
    /// `auditRowsPerInsert` through one statement each (a statement's own cost, `AUTOINCREMENT`'s counter among it,
    /// paid once a run), the rest one a statement.
    static func insertAudit(_ records: [AuditRecord], into db: Connection) throws {
        var rest = records[...]
        if rest.count >= auditRowsPerInsert {
            let run = try db.cachedStatement(auditInsertRun)
            while rest.count >= auditRowsPerInsert {
                try run.execute(rest.prefix(auditRowsPerInsert).flatMap(auditValues))
                rest = rest.dropFirst(auditRowsPerInsert)
            }
        }
        guard !rest.isEmpty else { return }
        let one = try db.cachedStatement(auditInsertOne)
        for record in rest { try one.execute(auditValues(record)) }
    }

    /// How many audit records one statement inserts when that many are written together.
    static let auditRowsPerInsert = 32

    /// The inserts of a run of records and of one, made once (their text is the statement cache's key).
    static let auditInsertRun = auditInsert(rows: auditRowsPerInsert), auditInsertOne = auditInsert(rows: 1)

    /// The insert of `rows` audit records.
    static func auditInsert(rows: Int) -> String {
        "INSERT INTO audit_log (time, token_id, role, patient_id, action, item_count, status) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// One audit record's values, in `auditInsert`'s column order.
    static func auditValues(_ r: AuditRecord) -> [SQLValue] {
        [.integer(Self.ms(r.time)), .text(r.tokenID), .text(r.role.rawValue), .text(r.patient),
         .text(r.action), .integer(Int64(r.count)), .integer(Int64(r.status))]
    }

    public func audit(_ queries: [AuditQuery]) throws -> [[AuditRecord]] {
        try database.read { db in try queries.map { try Self.audit($0, in: db) } }
    }

    /// One query's audit records, newest first.
    private static func audit(_ q: AuditQuery, in db: Connection) throws -> [AuditRecord] {
        var sql = "SELECT id, time, token_id, role, patient_id, action, item_count, status FROM audit_log WHERE 1 = 1"
        var values: [SQLValue] = []
        if let p = q.patient { sql += " AND patient_id = ?"; values.append(.text(p)) }
        if let t = q.tokenID { sql += " AND token_id = ?"; values.append(.text(t)) }
        if let b = q.before { sql += " AND id < ?"; values.append(.integer(b)) }
        sql += " ORDER BY id DESC LIMIT ?"
        values.append(.integer(Int64(q.limit)))
        return try db.fetchAll(sql, values) { s in
            AuditRecord(id: s.int64(0), time: date(s.int64(1)), tokenID: s.string(2), role: Role(rawValue: s.string(3)) ?? .device,
                        patient: s.optionalString(4), action: s.string(5), count: Int(s.int64(6)), status: Int(s.int64(7)))
        }
    }
}
