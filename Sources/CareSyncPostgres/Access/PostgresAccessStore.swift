import CareSyncCore
import Foundation

/// Patients, care teams, tokens and audit records in the PostgreSQL database (the same tables as SQLite's
/// migration 0010). Uniqueness is the server's: a concurrent duplicate from another instance is
/// `alreadyExists`, never a second row.
public final class PostgresAccessStore: AccessStore {
    let database: PostgresDatabase

    /// A store over an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    static func ms(_ d: Date) -> Int64 { SyncRules.milliseconds(d) }
    static func date(_ ms: Int64) -> Date { SyncRules.date(milliseconds: ms) }

    public func createPatient(_ p: PatientRecord) throws {
        try database.write { db in
            let inserted = try db.query("INSERT INTO patients (id, time_zone, created_at, display_name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                                        [.text(p.id), .text(p.timeZone), .int64(Self.ms(p.createdAt)), .text(p.displayName)]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("patient \(p.id)") }
            // After the insert, which waits for an erasure holding the row: the check then sees that erasure committed.
            guard try db.query("SELECT 1 FROM erased_patients WHERE id = $1", [.text(p.id)]).count == 0 else {
                throw AccessStoreError.erased("patient \(p.id)")
            }
        }
    }

    public func patient(id: String) throws -> PatientRecord? {
        try database.read { db in
            try db.query("SELECT id, time_zone, created_at, display_name FROM patients WHERE id = $1", [.text(id)]).first(Self.patientRow)
        }
    }

    public func patients() throws -> [PatientRecord] {
        try database.read { db in try db.query("SELECT id, time_zone, created_at, display_name FROM patients ORDER BY id").map(Self.patientRow) }
    }

    static func patientRow(_ r: PostgresRow) throws -> PatientRecord {
        PatientRecord(id: try r.string(0), timeZone: try r.string(1), createdAt: date(try r.int64(2)), displayName: try r.string(3))
    }

    public func updatePatient(id: String, timeZone: String, displayName: String) throws -> PatientRecord? {
        try database.write { db in
            try db.query("UPDATE patients SET time_zone = $1, display_name = $2 WHERE id = $3 RETURNING id, time_zone, created_at, display_name",
                         [.text(timeZone), .text(displayName), .text(id)]).first(Self.patientRow)
        }
    }

    public func createCareTeam(name: String, now: Date) throws {
        try database.write { db in
            let inserted = try db.query("INSERT INTO care_teams (name, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                                        [.text(name), .int64(Self.ms(now))]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("care team \(name)") }
        }
    }

    public func addPatient(_ patient: String, toCareTeam name: String) throws {
        try database.write { db in
            guard try db.query("SELECT 1 FROM patients WHERE id = $1 FOR KEY SHARE", [.text(patient)]).count > 0 else {
                throw AccessStoreError.missing("patient \(patient)")
            }
            guard try db.query("SELECT 1 FROM care_teams WHERE name = $1 FOR KEY SHARE", [.text(name)]).count > 0 else {
                throw AccessStoreError.missing("care team \(name)")
            }
            // Adds one at a time, so the identity numbers commit in increasing order and a reader that sees a number
            // has seen every smaller one (an export's membership mark is exact; reads take no lock).
            try db.query("LOCK TABLE care_team_patients IN EXCLUSIVE MODE")
            try db.query("INSERT INTO care_team_patients (care_team, patient_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                         [.text(name), .text(patient)])
        }
    }

    /// Also tells every instance's listener at commit, which forgets the reach it proved to the patient and ends the
    /// waits that reach held (`PostgresChangeListener`), whoever took the patient off (an instance or the command line).
    public func removePatient(_ patient: String, fromCareTeam name: String, at time: Date) throws -> Bool {
        try database.write { db in
            guard try db.query("SELECT 1 FROM care_teams WHERE name = $1 FOR KEY SHARE", [.text(name)]).count > 0 else {
                throw AccessStoreError.missing("care team \(name)")
            }
            guard try db.query("DELETE FROM care_team_patients WHERE care_team = $1 AND patient_id = $2",
                               [.text(name), .text(patient)]).affected > 0 else { return false }
            try db.query("UPDATE care_team_leaves SET last = last + 1")
            try db.query("""
                INSERT INTO care_team_departures (care_team, patient_id, left_at) VALUES ($1, $2, $3)
                ON CONFLICT (care_team, patient_id) DO UPDATE SET left_at = excluded.left_at
                """, [.text(name), .text(patient), .int64(Self.ms(time))])
            if let storeID = try db.query("SELECT value FROM store_meta WHERE key = 'store_id'").first({ try $0.string(0) }) {
                try db.query("SELECT pg_notify($1, $2)", [.text(PostgresChangeListener.channel(storeID: storeID)),
                                                          .text(PostgresChangeListener.reachPayload(patient: patient))])
            }
            return true
        }
    }

    public func careTeamLeaves() throws -> Int64 {
        try database.read { db in try db.query("SELECT last FROM care_team_leaves").first { try $0.int64(0) } ?? 0 }
    }

    public func careTeamDepartures(_ name: String) throws -> [String: Date] {
        try database.read { db in
            let rows = try db.query("SELECT patient_id, left_at FROM care_team_departures WHERE care_team = $1", [.text(name)])
                .map { (try $0.string(0), Self.date(try $0.int64(1))) }
            return Dictionary(uniqueKeysWithValues: rows)
        }
    }

    public func careTeamMembers(_ name: String) throws -> [String: Int64]? {
        try database.read { db in
            guard try db.query("SELECT 1 FROM care_teams WHERE name = $1", [.text(name)]).count > 0 else { return nil }
            let rows = try db.query("SELECT patient_id, joined FROM care_team_patients WHERE care_team = $1", [.text(name)])
                .map { (try $0.string(0), try $0.int64(1)) }
            return Dictionary(uniqueKeysWithValues: rows)
        }
    }

    public func careTeams() throws -> [CareTeamRecord] {
        try database.read { db in
            let teams = try db.query("SELECT name, created_at FROM care_teams ORDER BY name").map { (try $0.string(0), try $0.int64(1)) }
            let members = try db.query("SELECT care_team, patient_id FROM care_team_patients ORDER BY care_team, patient_id")
                .map { (try $0.string(0), try $0.string(1)) }
            let grouped = Dictionary(grouping: members, by: { $0.0 })
            return teams.map { CareTeamRecord(name: $0.0, patients: grouped[$0.0]?.map(\.1) ?? [], createdAt: Self.date($0.1)) }
        }
    }

    public func isPatient(_ patient: String, inAnyOf teams: [String]) throws -> Bool {
        guard !teams.isEmpty else { return false }
        return try database.read { db in
            let placeholders = teams.indices.map { "$\($0 + 2)" }.joined(separator: ", ")
            return try db.query("SELECT 1 FROM care_team_patients WHERE patient_id = $1 AND care_team IN (\(placeholders)) LIMIT 1",
                                [.text(patient)] + teams.map { .text($0) }).count > 0
        }
    }

    public func insertToken(_ t: TokenRecord) throws {
        try database.write { db in
            let inserted = try db.query("""
                INSERT INTO tokens (id, secret_hash, role, patient_id, source, read_types, write_types, created_at, expires_at, revoked_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING
                """, [.text(t.id), .bytes(t.secretHash), .text(t.role.rawValue), .text(t.patient), .text(t.source),
                      .text(Self.typeList(t.readTypes)), .text(Self.typeList(t.writeTypes)), .int64(Self.ms(t.createdAt)),
                      .int64(t.expiresAt.map(Self.ms)), .int64(t.revokedAt.map(Self.ms))]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("token \(t.id)") }
            for team in t.careTeams {
                try db.query("INSERT INTO token_care_teams (token_id, care_team) VALUES ($1, $2)", [.text(t.id), .text(team)])
            }
        }
    }

    static let tokenColumns = "id, secret_hash, role, patient_id, source, read_types, write_types, created_at, expires_at, revoked_at"

    /// The token and its care teams in one statement (one snapshot, one round trip, no transaction around it): every
    /// authenticated request reads it.
    public func token(id: String) throws -> TokenRecord? {
        try database.withConnection { db in
            let rows = try db.query("""
                SELECT \(Self.tokenColumns), c.care_team FROM tokens LEFT JOIN token_care_teams c ON c.token_id = tokens.id
                WHERE tokens.id = $1 ORDER BY c.care_team
                """, [.text(id)])
            guard var t = try rows.first(Self.tokenRow) else { return nil }
            t.careTeams = try rows.map { try $0.optionalString(10) }.compactMap { $0 }
            return t
        }
    }

    public func tokens() throws -> [TokenRecord] {
        try database.read { db in
            let list = try db.query("SELECT \(Self.tokenColumns) FROM tokens ORDER BY created_at, id").map(Self.tokenRow)
            let teams = try db.query("SELECT token_id, care_team FROM token_care_teams ORDER BY care_team")
                .map { (try $0.string(0), try $0.string(1)) }
            let grouped = Dictionary(grouping: teams, by: { $0.0 })
            return list.map { t in var t = t; t.careTeams = grouped[t.id]?.map(\.1) ?? []; return t }
        }
    }

    static func tokenRow(_ r: PostgresRow) throws -> TokenRecord {
        TokenRecord(id: try r.string(0), secretHash: try r.bytes(1), role: Role(rawValue: try r.string(2)) ?? .device,
                    patient: try r.optionalString(3), careTeams: [], source: try r.string(4),
                    readTypes: types(try r.optionalString(5)), writeTypes: types(try r.optionalString(6)),
                    createdAt: date(try r.int64(7)), expiresAt: try r.optionalInt64(8).map(date), revokedAt: try r.optionalInt64(9).map(date))
    }

    static func typeList(_ set: Set<SampleType>?) -> String? { set.map { $0.map(\.rawValue).sorted().joined(separator: ",") } }
    static func types(_ text: String?) -> Set<SampleType>? {
        text.map { Set($0.split(separator: ",").compactMap { SampleType(rawValue: String($0)) }) }
    }

    /// Also tells every instance's listener at commit, which ends the token's parked long polls and event
    /// streams there at once (`PostgresChangeListener`), whoever revoked it (an instance or the command line).
    public func revokeToken(id: String, at: Date) throws -> Bool {
        try database.write { db in
            let revoked = try db.query("UPDATE tokens SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2",
                                       [.int64(Self.ms(at)), .text(id)]).affected > 0
            if revoked, let storeID = try db.query("SELECT value FROM store_meta WHERE key = 'store_id'").first({ try $0.string(0) }) {
                try db.query("SELECT pg_notify($1, $2)", [.text(PostgresChangeListener.channel(storeID: storeID)),
                                                          .text(PostgresChangeListener.revocationPayload(token: id))])
            }
            return revoked
        }
    }

    /// Group-committed with whatever else is being written, so a busy server pays one commit for many records.
    public func commitAudit(_ records: [AuditRecord]) async throws {
        guard !records.isEmpty else { return }
        try await database.asyncWrite { db in try Self.insertAudit(records, into: db) }
    }

    /// Inserts audit records, in order, inside the caller's write transaction (a sync write group's, for one): one
    /// statement, sent ahead.
    static func insertAudit(_ records: [AuditRecord], into db: PostgresConnection) throws {
        guard !records.isEmpty else { return }
        try db.send("""
            INSERT INTO audit_log (time, token_id, role, patient_id, action, item_count, status)
            SELECT time, token_id, role, patient_id, action, item_count, status
              FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
                   WITH ORDINALITY AS a(time, token_id, role, patient_id, action, item_count, status, n)
             ORDER BY a.n
            """, [.array(records.map { Self.ms($0.time) }), .array(records.map(\.tokenID)), .array(records.map(\.role.rawValue)),
                  .array(records.map(\.patient)), .array(records.map(\.action)), .array(records.map { Int64($0.count) }),
                  .array(records.map { Int64($0.status) })])
    }

    public func audit(_ queries: [AuditQuery]) throws -> [[AuditRecord]] {
        try database.read { db in try queries.map { try Self.audit($0, in: db) } }
    }

    /// One query's audit records, newest first.
    private static func audit(_ q: AuditQuery, in db: PostgresConnection) throws -> [AuditRecord] {
        var sql = "SELECT id, time, token_id, role, patient_id, action, item_count, status FROM audit_log WHERE true"
        var values: [PostgresValue] = []
        if let p = q.patient { values.append(.text(p)); sql += " AND patient_id = $\(values.count)" }
        if let t = q.tokenID { values.append(.text(t)); sql += " AND token_id = $\(values.count)" }
        if let b = q.before { values.append(.int64(b)); sql += " AND id < $\(values.count)" }
        values.append(.int64(Int64(q.limit)))
        sql += " ORDER BY id DESC LIMIT $\(values.count)"
        return try db.query(sql, values).map { r in
            AuditRecord(id: try r.int64(0), time: date(try r.int64(1)), tokenID: try r.string(2),
                        role: Role(rawValue: try r.string(3)) ?? .device, patient: try r.optionalString(4),
                        action: try r.string(5), count: Int(try r.int64(6)), status: Int(try r.int64(7)))
        }
    }
}
