import Foundation
import CareSyncCore

/// Provider identities of people in the PostgreSQL database (migration 0015, the table of SQLite's 0023).
extension PostgresAccessStore {
    static let identityColumns = "issuer, subject, person_id, created_at"

    public func linkIdentity(_ identity: PersonIdentity) throws {
        try database.write { db in try Self.link(db, identity) }
    }

    public func identity(issuer: String, subject: String) throws -> PersonIdentity? {
        try database.read { db in
            try db.query("SELECT \(Self.identityColumns) FROM person_identities WHERE issuer = $1 AND subject = $2",
                         [.text(issuer), .text(subject)]).first(Self.identityRow)
        }
    }

    public func identities(person: String) throws -> [PersonIdentity] {
        try database.read { db in
            try db.query("SELECT \(Self.identityColumns) FROM person_identities WHERE person_id = $1 ORDER BY created_at, issuer, subject",
                         [.text(person)]).map(Self.identityRow)
        }
    }

    public func unlinkIdentity(issuer: String, subject: String, person: String) throws -> Bool {
        try database.write { db in
            try db.query("DELETE FROM person_identities WHERE issuer = $1 AND subject = $2 AND person_id = $3",
                         [.text(issuer), .text(subject), .text(person)]).affected == 1
        }
    }

    /// The identity is inserted last, with ON CONFLICT: of two redemptions linking one identity at once, the second
    /// throws `alreadyExists` and its whole transaction (the invitation too) rolls back.
    public func redeemInvitation(secretHash: [UInt8], newPersonID: String, linking issuer: String, subject: String,
                                 now: Date) throws -> PersonRecord? {
        try database.write { db in
            guard try db.query("SELECT 1 FROM person_identities WHERE issuer = $1 AND subject = $2", [.text(issuer), .text(subject)]).count == 0
            else { throw AccessStoreError.alreadyExists("identity") }
            guard let person = try Self.redeem(db, secretHash: secretHash, newPersonID: newPersonID, now: now) else { return nil }
            try Self.link(db, PersonIdentity(issuer: issuer, subject: subject, personID: person.id, createdAt: now))
            return person
        }
    }

    /// Links inside the caller's write transaction.
    private static func link(_ db: PostgresConnection, _ i: PersonIdentity) throws {
        guard try db.query("SELECT 1 FROM people WHERE id = $1 FOR KEY SHARE", [.text(i.personID)]).count > 0 else {
            throw AccessStoreError.missing("person \(i.personID)")
        }
        let inserted = try db.query("""
            INSERT INTO person_identities (\(Self.identityColumns)) VALUES ($1, $2, $3, $4) ON CONFLICT (issuer, subject) DO NOTHING
            """, [.text(i.issuer), .text(i.subject), .text(i.personID), .int64(Self.ms(i.createdAt))]).affected
        guard inserted == 1 else { throw AccessStoreError.alreadyExists("identity") }
    }

    static func identityRow(_ r: PostgresRow) throws -> PersonIdentity {
        PersonIdentity(issuer: try r.string(0), subject: try r.string(1), personID: try r.string(2), createdAt: date(try r.int64(3)))
    }
}
