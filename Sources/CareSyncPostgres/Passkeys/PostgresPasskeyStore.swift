import CareSyncCore
import Foundation

/// Passkeys in the PostgreSQL database (migration 0013, the table of SQLite's 0021). The credential id is the primary
/// key, so two instances registering the same credential store it once; a sign-in's counter update is a
/// compare-and-set, so of two instances racing with one assertion only one succeeds.
public final class PostgresPasskeyStore: PasskeyStore {
    let database: PostgresDatabase

    /// A store over an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    static let columns = """
        credential_id, person_id, user_handle, public_key, algorithm, sign_count, aaguid, backup_eligible, backed_up, name,
        created_at, last_used_at
        """

    public func insertPasskey(_ c: PasskeyCredential) throws {
        try database.write { db in
            let inserted = try db.query("""
                INSERT INTO passkeys (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING
                """, [.bytes(c.credentialID), .text(c.personID), .bytes(c.userHandle), .bytes(c.publicKeyCOSE), .int64(c.algorithm),
                      .int64(Int64(c.signCount)), .bytes(c.aaguid), .bool(c.backupEligible), .bool(c.backedUp), .text(c.name),
                      .int64(SyncRules.milliseconds(c.createdAt)), .int64(c.lastUsedAt.map(SyncRules.milliseconds))]).affected
            guard inserted == 1 else { throw PasskeyStoreError.alreadyExists }
        }
    }

    public func passkey(credentialID: [UInt8]) throws -> PasskeyCredential? {
        try database.read { db in
            try db.query("SELECT \(Self.columns) FROM passkeys WHERE credential_id = $1", [.bytes(credentialID)]).first(Self.row)
        }
    }

    public func passkeys(person: String) throws -> [PasskeyCredential] {
        try database.read { db in
            try db.query("SELECT \(Self.columns) FROM passkeys WHERE person_id = $1 ORDER BY created_at, credential_id", [.text(person)])
                .map(Self.row)
        }
    }

    public func recordPasskeyUse(credentialID: [UInt8], expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date) throws -> Bool {
        try database.write { db in
            try db.query("UPDATE passkeys SET sign_count = $1, backed_up = $2, last_used_at = $3 WHERE credential_id = $4 AND sign_count = $5",
                         [.int64(Int64(signCount)), .bool(backedUp), .int64(SyncRules.milliseconds(at)), .bytes(credentialID),
                          .int64(Int64(expectedSignCount))]).affected == 1
        }
    }

    public func deletePasskey(credentialID: [UInt8], person: String) throws -> Bool {
        try database.write { db in
            try db.query("DELETE FROM passkeys WHERE credential_id = $1 AND person_id = $2", [.bytes(credentialID), .text(person)]).affected == 1
        }
    }

    static func row(_ r: PostgresRow) throws -> PasskeyCredential {
        guard let signCount = UInt32(exactly: try r.int64(5)) else { throw PostgresStoreCorruption("a passkey's sign count is out of range") }
        return PasskeyCredential(
            credentialID: try r.bytes(0), personID: try r.string(1), userHandle: try r.bytes(2), publicKeyCOSE: try r.bytes(3),
            algorithm: try r.int64(4), signCount: signCount, aaguid: try r.bytes(6), backupEligible: try r.bool(7), backedUp: try r.bool(8),
            name: try r.string(9), createdAt: SyncRules.date(milliseconds: try r.int64(10)),
            lastUsedAt: r.isNull(11) ? nil : SyncRules.date(milliseconds: try r.int64(11)))
    }
}
