import Foundation
import CareSyncCore

/// Provider identities of people in the SQLite database (migration 0023).
extension SQLiteAccessStore {
    static let identityColumns = "issuer, subject, person_id, created_at"

    public func linkIdentity(_ identity: PersonIdentity) throws {
        try database.write { db in try Self.link(db, identity) }
    }

    public func identity(issuer: String, subject: String) throws -> PersonIdentity? {
        try database.read { db in
            try db.fetchOne("SELECT \(Self.identityColumns) FROM person_identities WHERE issuer = ? AND subject = ?",
                            [.text(issuer), .text(subject)], Self.identityRow)
        }
    }

    public func identities(person: String) throws -> [PersonIdentity] {
        try database.read { db in
            try db.fetchAll("SELECT \(Self.identityColumns) FROM person_identities WHERE person_id = ? ORDER BY created_at, issuer, subject",
                            [.text(person)], Self.identityRow)
        }
    }

    public func unlinkIdentity(issuer: String, subject: String, person: String) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM person_identities WHERE issuer = ? AND subject = ? AND person_id = ?",
                           [.text(issuer), .text(subject), .text(person)])
            return db.changes == 1
        }
    }

    public func redeemInvitation(secretHash: [UInt8], newPersonID: String, linking issuer: String, subject: String,
                                 now: Date) throws -> PersonRecord? {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM person_identities WHERE issuer = ? AND subject = ?", [.text(issuer), .text(subject)]) == nil
            else { throw AccessStoreError.alreadyExists("identity") }
            guard let person = try Self.redeem(db, secretHash: secretHash, newPersonID: newPersonID, now: now) else { return nil }
            try Self.link(db, PersonIdentity(issuer: issuer, subject: subject, personID: person.id, createdAt: now))
            return person
        }
    }

    /// Links inside the caller's write transaction.
    private static func link(_ db: Connection, _ i: PersonIdentity) throws {
        guard try db.scalarInt64("SELECT 1 FROM people WHERE id = ?", [.text(i.personID)]) != nil else {
            throw AccessStoreError.missing("person \(i.personID)")
        }
        guard try db.scalarInt64("SELECT 1 FROM person_identities WHERE issuer = ? AND subject = ?", [.text(i.issuer), .text(i.subject)]) == nil
        else { throw AccessStoreError.alreadyExists("identity") }
        try db.execute("INSERT INTO person_identities (\(Self.identityColumns)) VALUES (?, ?, ?, ?)",
                       [.text(i.issuer), .text(i.subject), .text(i.personID), .integer(Self.ms(i.createdAt))])
    }

    static func identityRow(_ s: Statement) -> PersonIdentity {
        PersonIdentity(issuer: s.string(0), subject: s.string(1), personID: s.string(2), createdAt: date(s.int64(3)))
    }
}
