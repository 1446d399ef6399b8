import CareSyncCore
import Foundation

/// Passkeys in the SQLite database (migration 0021).
public final class SQLitePasskeyStore: PasskeyStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    static let columns = """
        credential_id, person_id, user_handle, public_key, algorithm, sign_count, aaguid, backup_eligible, backed_up, name,
        created_at, last_used_at
        """

    public func insertPasskey(_ c: PasskeyCredential) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM passkeys WHERE credential_id = ?", [.blob(c.credentialID)]) == nil else {
                throw PasskeyStoreError.alreadyExists
            }
            try db.execute("INSERT INTO passkeys (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                .blob(c.credentialID), .text(c.personID), .blob(c.userHandle), .blob(c.publicKeyCOSE), .integer(c.algorithm),
                .integer(Int64(c.signCount)), .blob(c.aaguid), .integer(c.backupEligible ? 1 : 0), .integer(c.backedUp ? 1 : 0),
                .text(c.name), .integer(SyncRules.milliseconds(c.createdAt)), c.lastUsedAt.map { .integer(SyncRules.milliseconds($0)) } ?? .null,
            ])
        }
    }

    public func passkey(credentialID: [UInt8]) throws -> PasskeyCredential? {
        try database.read { db in
            try db.fetchOne("SELECT \(Self.columns) FROM passkeys WHERE credential_id = ?", [.blob(credentialID)], Self.row)
        }
    }

    public func passkeys(person: String) throws -> [PasskeyCredential] {
        try database.read { db in
            try db.fetchAll("SELECT \(Self.columns) FROM passkeys WHERE person_id = ? ORDER BY created_at, credential_id",
                            [.text(person)], Self.row)
        }
    }

    public func recordPasskeyUse(credentialID: [UInt8], expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date) throws -> Bool {
        try database.write { db in
            try db.execute("UPDATE passkeys SET sign_count = ?, backed_up = ?, last_used_at = ? WHERE credential_id = ? AND sign_count = ?",
                           [.integer(Int64(signCount)), .integer(backedUp ? 1 : 0), .integer(SyncRules.milliseconds(at)),
                            .blob(credentialID), .integer(Int64(expectedSignCount))])
            return db.changes == 1
        }
    }

    public func deletePasskey(credentialID: [UInt8], person: String) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM passkeys WHERE credential_id = ? AND person_id = ?", [.blob(credentialID), .text(person)])
            return db.changes == 1
        }
    }

    static func row(_ s: Statement) throws -> PasskeyCredential {
        guard let signCount = UInt32(exactly: s.int64(5)) else { throw StoreCorruption("a passkey's sign count is out of range") }
        return PasskeyCredential(
            credentialID: s.bytes(0), personID: s.string(1), userHandle: s.bytes(2), publicKeyCOSE: s.bytes(3), algorithm: s.int64(4),
            signCount: signCount, aaguid: s.bytes(6), backupEligible: s.int64(7) != 0, backedUp: s.int64(8) != 0, name: s.string(9),
            createdAt: SyncRules.date(milliseconds: s.int64(10)), lastUsedAt: s.isNull(11) ? nil : SyncRules.date(milliseconds: s.int64(11)))
    }
}
