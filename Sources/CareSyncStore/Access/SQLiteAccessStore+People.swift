import Foundation
import CareSyncCore

/// People, invitations and sessions in the SQLite database (migration 0017).
extension SQLiteAccessStore {
    static let invitationColumns = "id, secret_hash, role, care_teams, display_name, person_id, created_at, expires_at, redeemed_at"
    static let personColumns = "id, role, care_teams, display_name, created_at, deactivated_at"
    static let sessionColumns = "id, secret_hash, person_id, created_at, last_used_at, expires_at, ended_at"

    public func insertInvitation(_ i: InvitationRecord) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM invitations WHERE id = ?", [.text(i.id)]) == nil else {
                throw AccessStoreError.alreadyExists("invitation \(i.id)")
            }
            try db.execute("INSERT INTO invitations (\(Self.invitationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [.text(i.id), .blob(i.secretHash), .text(i.role.rawValue), .text(i.careTeams.joined(separator: ",")),
                            .text(i.displayName), .text(i.personID), .integer(Self.ms(i.createdAt)), .integer(Self.ms(i.expiresAt)),
                            .integer(i.redeemedAt.map(Self.ms))])
        }
    }

    public func invitations() throws -> [InvitationRecord] {
        try database.read { db in
            try db.fetchAll("SELECT \(Self.invitationColumns) FROM invitations ORDER BY created_at, id", [], Self.invitationRow)
        }
    }

    public func redeemInvitation(secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord? {
        try database.write { db in try Self.redeem(db, secretHash: secretHash, newPersonID: newPersonID, now: now) }
    }

    /// Redeems an invitation inside the caller's write transaction.
    static func redeem(_ db: Connection, secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord? {
        guard let i = try db.fetchOne("SELECT \(Self.invitationColumns) FROM invitations WHERE secret_hash = ?",
                                      [.blob(secretHash)], Self.invitationRow),
              i.redeemedAt == nil, now < i.expiresAt else { return nil }
        let person: PersonRecord
        if let existing = i.personID {
            guard let found = try db.fetchOne("SELECT \(Self.personColumns) FROM people WHERE id = ?", [.text(existing)], Self.personRow),
                  found.isActive else { return nil }
            person = found
        } else {
            person = PersonRecord(id: newPersonID, role: i.role, careTeams: i.careTeams, displayName: i.displayName, createdAt: now)
            guard try db.scalarInt64("SELECT 1 FROM people WHERE id = ?", [.text(person.id)]) == nil else {
                throw AccessStoreError.alreadyExists("person \(person.id)")
            }
            try db.execute("INSERT INTO people (\(Self.personColumns)) VALUES (?, ?, ?, ?, ?, NULL)",
                           [.text(person.id), .text(person.role.rawValue), .text(person.careTeams.joined(separator: ",")),
                            .text(person.displayName), .integer(Self.ms(now))])
        }
        try db.execute("UPDATE invitations SET redeemed_at = ? WHERE id = ? AND redeemed_at IS NULL", [.integer(Self.ms(now)), .text(i.id)])
        return person
    }

    public func person(id: String) throws -> PersonRecord? {
        try database.read { db in try db.fetchOne("SELECT \(Self.personColumns) FROM people WHERE id = ?", [.text(id)], Self.personRow) }
    }

    public func people() throws -> [PersonRecord] {
        try database.read { db in try db.fetchAll("SELECT \(Self.personColumns) FROM people ORDER BY created_at, id", [], Self.personRow) }
    }

    public func deactivatePerson(id: String, at: Date) throws -> Bool {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM people WHERE id = ?", [.text(id)]) != nil else { return false }
            try db.execute("UPDATE people SET deactivated_at = coalesce(deactivated_at, ?) WHERE id = ?", [.integer(Self.ms(at)), .text(id)])
            try db.execute("UPDATE sessions SET ended_at = ? WHERE person_id = ? AND ended_at IS NULL", [.integer(Self.ms(at)), .text(id)])
            return true
        }
    }

    public func insertSession(_ s: SessionRecord) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM people WHERE id = ?", [.text(s.personID)]) != nil else {
                throw AccessStoreError.missing("person \(s.personID)")
            }
            guard try db.scalarInt64("SELECT 1 FROM sessions WHERE id = ?", [.text(s.id)]) == nil else {
                throw AccessStoreError.alreadyExists("session \(s.id)")
            }
            try db.execute("INSERT INTO sessions (\(Self.sessionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [.text(s.id), .blob(s.secretHash), .text(s.personID), .integer(Self.ms(s.createdAt)),
                            .integer(Self.ms(s.lastUsedAt)), .integer(Self.ms(s.expiresAt)), .integer(s.endedAt.map(Self.ms))])
        }
    }

    public func session(secretHash: [UInt8]) throws -> SessionRecord? {
        try database.read { db in
            try db.fetchOne("SELECT \(Self.sessionColumns) FROM sessions WHERE secret_hash = ?", [.blob(secretHash)], Self.sessionRow)
        }
    }

    public func session(id: String) throws -> SessionRecord? {
        try database.read { db in try db.fetchOne("SELECT \(Self.sessionColumns) FROM sessions WHERE id = ?", [.text(id)], Self.sessionRow) }
    }

    public func sessions(person: String) throws -> [SessionRecord] {
        try database.read { db in
            try db.fetchAll("SELECT \(Self.sessionColumns) FROM sessions WHERE person_id = ? ORDER BY created_at DESC, id DESC",
                            [.text(person)], Self.sessionRow)
        }
    }

    public func touchSession(id: String, at: Date) throws {
        try database.write { db in
            try db.execute("UPDATE sessions SET last_used_at = max(last_used_at, ?) WHERE id = ? AND ended_at IS NULL",
                           [.integer(Self.ms(at)), .text(id)])
        }
    }

    public func endSession(id: String, at: Date) throws -> Bool {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM sessions WHERE id = ?", [.text(id)]) != nil else { return false }
            try db.execute("UPDATE sessions SET ended_at = coalesce(ended_at, ?) WHERE id = ?", [.integer(Self.ms(at)), .text(id)])
            return true
        }
    }

    static func teams(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }

    static func invitationRow(_ s: Statement) -> InvitationRecord {
        InvitationRecord(id: s.string(0), secretHash: s.bytes(1), role: Role(rawValue: s.string(2)) ?? .therapist, careTeams: teams(s.string(3)),
                         displayName: s.string(4), personID: s.optionalString(5), createdAt: date(s.int64(6)),
                         expiresAt: date(s.int64(7)), redeemedAt: s.optionalInt64(8).map(date))
    }

    static func personRow(_ s: Statement) -> PersonRecord {
        PersonRecord(id: s.string(0), role: Role(rawValue: s.string(1)) ?? .therapist, careTeams: teams(s.string(2)),
                     displayName: s.string(3), createdAt: date(s.int64(4)), deactivatedAt: s.optionalInt64(5).map(date))
    }

    static func sessionRow(_ s: Statement) -> SessionRecord {
        SessionRecord(id: s.string(0), secretHash: s.bytes(1), personID: s.string(2), createdAt: date(s.int64(3)),
                      lastUsedAt: date(s.int64(4)), expiresAt: date(s.int64(5)), endedAt: s.optionalInt64(6).map(date))
    }
}
