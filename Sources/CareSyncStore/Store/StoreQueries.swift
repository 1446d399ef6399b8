import CareSyncCore
import Foundation

/// Reads shared by the store's read and write paths: identity, head, horizon, anchor checks.
enum StoreQueries {
    /// The highest sequence ever taken (0 for an empty store). AUTOINCREMENT keeps it in sqlite_sequence.
    static func head(_ db: Connection) throws -> Int64 {
        try db.scalarInt64("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'") ?? 0
    }

    /// The anchor key of `store_meta` (migration 0006), 32 bytes.
    static func anchorKey(_ db: Connection) throws -> [UInt8] {
        guard let hex = try meta(db, "anchor_key"), let key = AnchorKeyText.bytes(hex) else {
            throw StoreCorruption("store_meta has no anchor_key of 64 hex digits")
        }
        return key
    }

    /// A value of `store_meta`.
    static func meta(_ db: Connection, _ key: String) throws -> String? {
        try db.scalarString("SELECT value FROM store_meta WHERE key = ?", [.text(key)])
    }

    /// Sets a value of `store_meta`.
    static func setMeta(_ db: Connection, _ key: String, _ value: String) throws {
        try db.execute("INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       [.text(key), .text(value)])
    }

    /// The store id anchors carry.
    static func storeID(_ db: Connection) throws -> String {
        guard let id = try meta(db, "store_id"), !id.isEmpty else { throw StoreCorruption("store_meta has no store_id") }
        return id
    }

    /// Anchors with a lower sequence may have missed a purged tombstone.
    static func purgeHorizon(_ db: Connection) throws -> Int64 {
        Int64(try meta(db, "purge_horizon") ?? "0") ?? 0
    }

    /// The sequence a client anchor stands for in this store, by `Anchor.validate` (docs/sync-rules.md).
    ///
    /// An anchor of an earlier identity of this store (a restored backup's source, in `store_lineage`)
    /// counts as this store's if its sequence is within the range the copy holds; otherwise another
    /// store's anchor is `invalidAnchor`.
    static func validate(_ anchor: Anchor, storeID: String, head: Int64, horizon: Int64, db: Connection) throws -> Int64 {
        var anchor = anchor
        if anchor.storeID != storeID {
            guard let validThrough = try db.scalarInt64("SELECT valid_through FROM store_lineage WHERE store_id = ?",
                                                        [.text(anchor.storeID)]),
                  anchor.sequence <= validThrough else { throw SyncError.invalidAnchor }
            anchor.storeID = storeID
        }
        try anchor.validate(storeID: storeID, head: head, storeHorizon: horizon)
        return anchor.sequence
    }

    /// The anchor at the head, stamped with the purge horizon, as of `db`'s current snapshot.
    static func headAnchor(_ db: Connection, storeID: String) throws -> Anchor {
        Anchor(storeID: storeID, sequence: try head(db), horizon: try purgeHorizon(db))
    }
}
