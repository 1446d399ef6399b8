import CareSyncCore
import Foundation

/// The SQL of replica checksums: running sums per (patient, type) in `checksums`, and the figures as of an anchor.
enum ChecksumQueries {
    /// The stored figures of (patient, type); zero when there is no row.
    static func stored(_ db: Connection, patient: String, type: String) throws -> TypeChecksum {
        try db.cachedStatement("SELECT count, sum FROM checksums WHERE patient = ? AND type = ?")
            .first([.text(patient), .text(type)]) { TypeChecksum(count: $0.int64(0), sum: UInt64(bitPattern: $0.int64(1))) }
            ?? TypeChecksum()
    }

    /// The figures as of sequence `at`: the running sums, less the samples inserted after `at` that are still live,
    /// plus those deleted after `at` that were inserted by then. Reads only the changes after `at` (the feed's indexes).
    static func figures(_ db: Connection, patient: String, at: Int64) throws -> [SampleType: TypeChecksum] {
        var types: [String: TypeChecksum] = [:]
        try db.cachedStatement("SELECT type, count, sum FROM checksums WHERE patient = ?").forEachRow([.text(patient)]) {
            types[$0.string(0)] = TypeChecksum(count: $0.int64(1), sum: UInt64(bitPattern: $0.int64(2)))
        }
        try db.cachedStatement("SELECT type, uuid, sync_version FROM samples WHERE patient = ? AND seq > ?")
            .forEachRow([.text(patient), .integer(at)]) { row in
                guard let uuid = row.uuid(1) else { return }
                types[row.string(0), default: TypeChecksum()].remove(SampleDigest.of(uuid: uuid, syncVersion: row.optionalInt64(2)))
            }
        // A tombstone from before 0004 has no inserted_seq: its sample counts as inserted before any anchor.
        try db.cachedStatement("""
            SELECT type, uuid, sync_version FROM tombstones WHERE patient = ? AND seq > ? AND coalesce(inserted_seq, 0) <= ?
            """).forEachRow([.text(patient), .integer(at), .integer(at)]) { row in
                guard let uuid = row.uuid(1) else { return }
                types[row.string(0), default: TypeChecksum()].add(SampleDigest.of(uuid: uuid, syncVersion: row.optionalInt64(2)))
            }
        var figures: [SampleType: TypeChecksum] = [:]
        for (name, checksum) in types where checksum.count != 0 || checksum.sum != 0 {
            if let type = SampleType(rawValue: name) { figures[type] = checksum }
        }
        return figures
    }

    /// Whether `checksums` was never filled (a database from before 0004).
    static func needsFill(_ db: Connection) throws -> Bool {
        try db.scalarInt64("SELECT count(*) FROM store_meta WHERE key = 'checksums'") == 0
    }

    /// Fills `checksums` from the live samples, once, for a database that had samples before 0004.
    static func fillIfNeeded(_ db: Connection) throws {
        guard try needsFill(db) else { return }
        var sums: [[String]: TypeChecksum] = [:]
        _ = try db.fetchAll("SELECT patient, type, uuid, sync_version FROM samples") { row in
            if let uuid = row.uuid(2) {
                sums[[row.string(0), row.string(1)], default: TypeChecksum()].add(SampleDigest.of(uuid: uuid, syncVersion: row.optionalInt64(3)))
            }
        }
        try db.execute("DELETE FROM checksums")
        for (key, checksum) in sums {
            try db.execute("INSERT INTO checksums (patient, type, count, sum) VALUES (?, ?, ?, ?)",
                           [.text(key[0]), .text(key[1]), .integer(checksum.count), .integer(Int64(bitPattern: checksum.sum))])
        }
        try StoreQueries.setMeta(db, "checksums", "ready")
    }
}

extension SQLiteSyncStore {
    /// The patient's replica checksums as of `anchor` (nil: the head), in one read transaction.
    public func checksums(patient: String, at anchor: Anchor?) throws -> ReplicaChecksums {
        try database.read { db in
            let head = try StoreQueries.head(db)
            let horizon = try StoreQueries.purgeHorizon(db)
            var at = try StoreQueries.headAnchor(db, storeID: storeID)
            if let anchor {
                at = anchor
                at.sequence = try StoreQueries.validate(anchor, storeID: storeID, head: head, horizon: horizon, db: db)
                // Below the horizon, deletions since may be purged: the figures then cannot be known.
                guard at.sequence >= horizon else { throw SyncError.anchorExpired }
            }
            return ReplicaChecksums(anchor: at, types: try ChecksumQueries.figures(db, patient: patient, at: at.sequence))
        }
    }
}
