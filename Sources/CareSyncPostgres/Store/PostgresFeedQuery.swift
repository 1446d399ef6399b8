import CareSyncCore
import CareSyncStoreCore
import Foundation

/// The anchored change feed: one page read in the caller's single read transaction (one snapshot).
enum PostgresFeedQuery {
    /// The page of `query` (whose anchor is already validated as `after`) and its next anchor.
    static func page(_ query: ChangeQuery, after: Int64, head: Int64, horizon: Int64, storeID: String,
                     db: PostgresConnection) throws -> ChangeSet {
        let limit = max(1, query.limit)
        var filters = ""
        var values: [PostgresValue] = [.text(query.patient), .int64(after), .int64(Int64(limit) + 1)]
        func parameter(_ value: PostgresValue) -> String {
            values.append(value)
            return "$\(values.count)"
        }
        if let types = query.types {
            // No type at all matches nothing (PostgreSQL has no empty IN list).
            let names = types.map(\.rawValue).sorted().map { parameter(.text($0)) }
            filters += names.isEmpty ? " AND false" : " AND type IN (" + names.joined(separator: ", ") + ")"
        }
        if let source = query.source {
            filters += " AND source = \(parameter(.text(source)))"
        }
        if let to = query.to {
            filters += " AND start_ms < \(parameter(.int64(SyncRules.milliseconds(to))))"
        }
        if let from = query.from {
            let ms = parameter(.int64(SyncRules.milliseconds(from)))
            filters += " AND (end_ms > \(ms) OR start_ms >= \(ms))"
        }
        if let through = query.through {
            filters += " AND seq <= \(parameter(.int64(through)))"
        }
        // Each arm walks its (patient, seq) index in order and stops at the limit; the outer sort merges at
        // most twice the limit. Parameters are numbered, so both arms share them.
        let time = query.writeTimes ? CommitTimes.sampleColumn : "NULL::bigint"
        let rows = try db.query("""
            (SELECT 0, seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value, components,
                    NULL::bigint, \(time)
               FROM samples WHERE patient = $1 AND seq > $2\(filters) ORDER BY seq LIMIT $3)
            UNION ALL
            (SELECT 1, seq, uuid, type, NULL, start_ms, end_ms, sync_id, sync_version, source, NULL, NULL, NULL, deleted_at_ms, NULL::bigint
               FROM tombstones WHERE patient = $1 AND seq > $2\(filters) ORDER BY seq LIMIT $3)
            ORDER BY 2 LIMIT $3
            """, values)
        var samples: [Sample] = []
        samples.reserveCapacity(min(rows.count, limit))
        var decoder = PostgresSampleRowDecoder()
        var deleted: [DeletedObject] = []
        var times: [UUID: Date] = [:]
        var lastSequence = after
        for index in 0..<min(rows.count, limit) {
            let row = rows[index]
            lastSequence = try row.int64(1)
            if try row.int64(0) == 0 {
                let sample = try decoder.sample(row, offset: 1)
                samples.append(sample)
                if query.writeTimes, let ms = try row.optionalInt64(14) { times[sample.uuid] = SyncRules.date(milliseconds: ms) }
            } else {
                deleted.append(try decodeTombstoneArm(row))
            }
        }
        let hasMore = rows.count > limit
        return ChangeSet(samples: samples, deletedObjects: deleted,
                         anchor: Anchor(storeID: storeID, sequence: hasMore ? lastSequence : query.lastPosition(head: head, after: after),
                                        horizon: horizon),
                         hasMore: hasMore, writeTimes: times)
    }

    /// A deleted object from the tombstone arm: the sample columns (NULL where only samples have one), `deleted_at_ms` last.
    private static func decodeTombstoneArm(_ row: PostgresRow) throws -> DeletedObject {
        DeletedObject(uuid: try row.uuid(2), type: try PostgresSampleRow.type(row, 3), syncIdentifier: try row.optionalString(7),
                      syncVersion: try row.optionalInt64(8), source: try row.string(9),
                      start: SyncRules.date(milliseconds: try row.int64(5)), end: SyncRules.date(milliseconds: try row.int64(6)),
                      deletedAt: SyncRules.date(milliseconds: try row.int64(13)))
    }
}
