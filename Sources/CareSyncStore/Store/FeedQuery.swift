import CareSyncCore
import Foundation

/// The anchored change feed: one page read in the caller's single read transaction.
enum FeedQuery {
    /// The page of `query` (whose anchor is already validated as `after`) and its next anchor.
    static func page(_ query: ChangeQuery, after: Int64, head: Int64, horizon: Int64, storeID: String,
                     db: Connection) throws -> ChangeSet {
        let limit = max(1, query.limit)
        var filters = ""
        var values: [SQLValue] = [.text(query.patient), .integer(after)]
        if let types = query.types {
            let names = types.map(\.rawValue).sorted()
            filters += " AND type IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
            values += names.map { .text($0) }
        }
        if let source = query.source {
            filters += " AND source = ?"
            values.append(.text(source))
        }
        if let to = query.to {
            filters += " AND start_ms < ?"
            values.append(.integer(SyncRules.milliseconds(to)))
        }
        if let from = query.from {
            filters += " AND (end_ms > ? OR start_ms >= ?)"
            let ms = SyncRules.milliseconds(from)
            values += [.integer(ms), .integer(ms)]
        }
        // Each arm walks its (patient, seq) index in order; the compound ORDER BY merges them and stops at
        // the limit (EXPLAIN: MERGE (UNION ALL) of two index SEARCHes, no sort). INDEXED BY pins that plan so
        // statistics (ANALYZE) can never switch a filtered feed to a time index plus a sort of the whole
        // history. Parameters are numbered so both arms share them.
        let numbered = number(filters, firstIndex: 3)
        values.append(.integer(Int64(limit) + 1))
        let sql = """
            SELECT 0, seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value
              FROM samples INDEXED BY samples_feed WHERE patient = ?1 AND seq > ?2\(numbered)
            UNION ALL
            SELECT 1, seq, uuid, type, NULL, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms, NULL
              FROM tombstones INDEXED BY tombstones_feed WHERE patient = ?1 AND seq > ?2\(numbered)
            ORDER BY 2 LIMIT ?\(values.count)
            """
        var samples: [Sample] = []
        samples.reserveCapacity(min(limit, 10_000))
        var decoder = SampleRowDecoder()
        var deleted: [DeletedObject] = []
        var count = 0
        var lastSequence = after
        let statement = try db.cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        while try statement.step() {
            count += 1
            if count > limit { break }
            lastSequence = statement.int64(1)
            if statement.int64(0) == 0 {
                samples.append(try decoder.sample(statement, offset: 1))
            } else {
                deleted.append(try decodeTombstoneArm(statement))
            }
        }
        let hasMore = count > limit
        return ChangeSet(samples: samples, deletedObjects: deleted,
                         anchor: Anchor(storeID: storeID, sequence: hasMore ? lastSequence : head, horizon: horizon),
                         hasMore: hasMore)
    }

    /// A deleted object from the tombstone arm: same columns as samples, `deleted_at_ms` in the metadata slot.
    private static func decodeTombstoneArm(_ row: Statement) throws -> DeletedObject {
        guard let uuid = row.uuid(2) else { throw StoreCorruption("uuid column is not 16 bytes") }
        guard let type = SampleType(rawValue: row.string(3)) else { throw StoreCorruption("unknown sample type") }
        return DeletedObject(uuid: uuid, type: type, syncIdentifier: row.optionalString(7), syncVersion: row.optionalInt64(8),
                             source: row.string(9), start: SyncRules.date(milliseconds: row.int64(5)),
                             end: SyncRules.date(milliseconds: row.int64(6)),
                             deletedAt: SyncRules.date(milliseconds: row.int64(10)))
    }

    /// Rewrites the anonymous `?` of `filters` as `?3`, `?4`, … so the text can appear twice.
    private static func number(_ filters: String, firstIndex: Int) -> String {
        var result = ""
        var index = firstIndex
        for character in filters {
            if character == "?" { result += "?\(index)"; index += 1 } else { result.append(character) }
        }
        return result
    }
}
