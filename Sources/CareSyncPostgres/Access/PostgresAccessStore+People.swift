import Foundation
import CareSyncCore

/// People, invitations and sessions in the PostgreSQL database (migration 0009, the tables of SQLite's 0017).
extension PostgresAccessStore {
    static let invitationColumns = "id, secret_hash, role, care_teams, display_name, person_id, created_at, expires_at, redeemed_at"
    static let personColumns = "id, role, care_teams, display_name, created_at, deactivated_at"
    static let sessionColumns = "id, secret_hash, person_id, created_at, last_used_at, expires_at, ended_at"

    public func insertInvitation(_ i: InvitationRecord) throws {
        try database.write { db in
            let inserted = try db.query("""
                INSERT INTO invitations (\(Self.invitationColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING
                """, [.text(i.id), .bytes(i.secretHash), .text(i.role.rawValue), .text(i.careTeams.joined(separator: ",")),
                      .text(i.displayName), .text(i.personID), .int64(Self.ms(i.createdAt)), .int64(Self.ms(i.expiresAt)),
                      .int64(i.redeemedAt.map(Self.ms))]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("invitation \(i.id)") }
        }
    }

    public func invitations() throws -> [InvitationRecord] {
        try database.read { db in
            try db.query("SELECT \(Self.invitationColumns) FROM invitations ORDER BY created_at, id").map(Self.invitationRow)
        }
    }

    /// The invitation row is locked first, so two instances redeeming the same secret at once make one person.
    public func redeemInvitation(secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord? {
        try database.write { db in try Self.redeem(db, secretHash: secretHash, newPersonID: newPersonID, now: now) }
    }

    /// Redeems an invitation inside the caller's write transaction.
    static func redeem(_ db: PostgresConnection, secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord? {
        guard let i = try db.query("SELECT \(Self.invitationColumns) FROM invitations WHERE secret_hash = $1 FOR UPDATE",
                                   [.bytes(secretHash)]).first(Self.invitationRow),
              i.redeemedAt == nil, now < i.expiresAt else { return nil }
        let person: PersonRecord
        if let existing = i.personID {
            guard let found = try db.query("SELECT \(Self.personColumns) FROM people WHERE id = $1", [.text(existing)]).first(Self.personRow),
                  found.isActive else { return nil }
            person = found
        } else {
            person = PersonRecord(id: newPersonID, role: i.role, careTeams: i.careTeams, displayName: i.displayName, createdAt: now)
            let inserted = try db.query("""
                INSERT INTO people (\(Self.personColumns)) VALUES ($1, $2, $3, $4, $5, NULL) ON CONFLICT (id) DO NOTHING
                """, [.text(person.id), .text(person.role.rawValue), .text(person.careTeams.joined(separator: ",")),
                      .text(person.displayName), .int64(Self.ms(now))]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("person \(person.id)") }
        }
        try db.query("UPDATE invitations SET redeemed_at = $1 WHERE id = $2 AND redeemed_at IS NULL", [.int64(Self.ms(now)), .text(i.id)])
        return person
    }

    public func person(id: String) throws -> PersonRecord? {
        try database.read { db in try db.query("SELECT \(Self.personColumns) FROM people WHERE id = $1", [.text(id)]).first(Self.personRow) }
    }

    public func people() throws -> [PersonRecord] {
        try database.read { db in try db.query("SELECT \(Self.personColumns) FROM people ORDER BY created_at, id").map(Self.personRow) }
    }

    public func deactivatePerson(id: String, at: Date) throws -> Bool {
        try database.write { db in
            let found = try db.query("UPDATE people SET deactivated_at = coalesce(deactivated_at, $1) WHERE id = $2",
                                     [.int64(Self.ms(at)), .text(id)]).affected > 0
            guard found else { return false }
            try db.query("UPDATE sessions SET ended_at = $1 WHERE person_id = $2 AND ended_at IS NULL", [.int64(Self.ms(at)), .text(id)])
            return true
        }
    }

    public func insertSession(_ s: SessionRecord) throws {
        try database.write { db in
            guard try db.query("SELECT 1 FROM people WHERE id = $1 FOR KEY SHARE", [.text(s.personID)]).count > 0 else {
                throw AccessStoreError.missing("person \(s.personID)")
            }
            let inserted = try db.query("""
                INSERT INTO sessions (\(Self.sessionColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING
                """, [.text(s.id), .bytes(s.secretHash), .text(s.personID), .int64(Self.ms(s.createdAt)),
                      .int64(Self.ms(s.lastUsedAt)), .int64(Self.ms(s.expiresAt)), .int64(s.endedAt.map(Self.ms))]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("session \(s.id)") }
        }
    }

    public func session(secretHash: [UInt8]) throws -> SessionRecord? {
        try database.read { db in
            try db.query("SELECT \(Self.sessionColumns) FROM sessions WHERE secret_hash = $1", [.bytes(secretHash)]).first(Self.sessionRow)
        }
    }

    public func session(id: String) throws -> SessionRecord? {
        try database.read { db in try db.query("SELECT \(Self.sessionColumns) FROM sessions WHERE id = $1", [.text(id)]).first(Self.sessionRow) }
    }

    public func sessions(person: String) throws -> [SessionRecord] {
        try database.read { db in
            try db.query("SELECT \(Self.sessionColumns) FROM sessions WHERE person_id = $1 ORDER BY created_at DESC, id DESC",
                         [.text(person)]).map(Self.sessionRow)
        }
    }

    public func touchSession(id: String, at: Date) throws {
        _ = try database.write { db in
            try db.query("UPDATE sessions SET last_used_at = greatest(last_used_at, $1) WHERE id = $2 AND ended_at IS NULL",
                         [.int64(Self.ms(at)), .text(id)])
        }
    }

    public func endSession(id: String, at: Date) throws -> Bool {
        try database.write { db in
            try db.query("UPDATE sessions SET ended_at = coalesce(ended_at, $1) WHERE id = $2", [.int64(Self.ms(at)), .text(id)]).affected > 0
        }
    }

    static func teams(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }

    static func invitationRow(_ r: PostgresRow) throws -> InvitationRecord {
        InvitationRecord(id: try r.string(0), secretHash: try r.bytes(1), role: Role(rawValue: try r.string(2)) ?? .therapist,
                         careTeams: teams(try r.string(3)), displayName: try r.string(4), personID: try r.optionalString(5),
                         createdAt: date(try r.int64(6)), expiresAt: date(try r.int64(7)), redeemedAt: try r.optionalInt64(8).map(date))
    }

    static func personRow(_ r: PostgresRow) throws -> PersonRecord {
        PersonRecord(id: try r.string(0), role: Role(rawValue: try r.string(1)) ?? .therapist, careTeams: teams(try r.string(2)),
                     displayName: try r.string(3), createdAt: date(try r.int64(4)), deactivatedAt: try r.optionalInt64(5).map(date))
    }

    static func sessionRow(_ r: PostgresRow) throws -> SessionRecord {
        SessionRecord(id: try r.string(0), secretHash: try r.bytes(1), personID: try r.string(2), createdAt: date(try r.int64(3)),
                      lastUsedAt: date(try r.int64(4)), expiresAt: date(try r.int64(5)), endedAt: try r.optionalInt64(6).map(date))
    }
}
