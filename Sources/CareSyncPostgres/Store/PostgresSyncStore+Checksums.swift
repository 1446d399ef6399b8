import CareSyncCore
import Foundation

extension PostgresSyncStore {
    /// The patient's replica checksums as of `anchor` (nil: the head), from one snapshot: the running sums,
    /// less the samples stored after the anchor, plus those deleted after it that were stored by then. Reads
    /// only the changes after the anchor (the feed's indexes), as SQLite's `ChecksumQueries`.
    public func checksums(patient: String, at anchor: Anchor?) throws -> ReplicaChecksums {
        try database.read { db in
            let (head, horizon) = try ordering.head(db)
            var at = Anchor(storeID: storeID, sequence: head, horizon: horizon)
            if let anchor {
                at = anchor
                at.sequence = try validate(anchor, head: head, horizon: horizon, db: db)
                // Below the horizon, deletions since may be purged: the figures then cannot be known.
                guard at.sequence >= horizon else { throw SyncError.anchorExpired }
            }
            var types: [String: TypeChecksum] = [:]
            for row in try db.query("SELECT type, count, sum FROM checksums WHERE patient = $1", [.text(patient)]).map({ $0 }) {
                types[try row.string(0)] = TypeChecksum(count: try row.int64(1), sum: UInt64(bitPattern: try row.int64(2)))
            }
            let changes = try db.query("""
                SELECT 0, type, uuid, sync_version FROM samples WHERE patient = $1 AND seq > $2
                UNION ALL
                SELECT 1, type, uuid, sync_version FROM tombstones WHERE patient = $1 AND seq > $2 AND inserted_seq <= $2
                """, [.text(patient), .int64(at.sequence)])
            for index in 0..<changes.count {
                let row = changes[index]
                let digest = SampleDigest.of(uuid: try row.uuid(2), syncVersion: try row.optionalInt64(3))
                if try row.int64(0) == 0 {
                    types[try row.string(1), default: TypeChecksum()].remove(digest)
                } else {
                    types[try row.string(1), default: TypeChecksum()].add(digest)
                }
            }
            var figures: [SampleType: TypeChecksum] = [:]
            for (name, checksum) in types where checksum.count != 0 || checksum.sum != 0 {
                if let type = SampleType(rawValue: name) { figures[type] = checksum }
            }
            return ReplicaChecksums(anchor: at, types: figures)
        }
    }
}
