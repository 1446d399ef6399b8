import CareSyncCore
import CareSyncStoreCore
import Foundation

extension FeedQuery {
    /// The SQL of a query's items: both arms with the query's filters, numbered so both arms share them.
    struct Filters: Sendable {
        /// `AND …` conditions with parameters numbered from ?3 (?1 is the patient, ?2 the sequence to read after).
        let conditions: String
        /// The patient, a placeholder for ?2, then the conditions' values.
        let values: [SQLValue]
        /// Whether rows carry the samples' write times (`ChangeQuery.writeTimes`).
        let writeTimes: Bool

        init(_ query: ChangeQuery) {
            var filters = ""
            var values: [SQLValue] = [.text(query.patient), .integer(0)]
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
            if let through = query.through {
                filters += " AND seq <= ?"
                values.append(.integer(through))
            }
            conditions = Self.number(filters, firstIndex: 3)
            self.values = values
            writeTimes = query.writeTimes
        }

        /// The values with `after` as ?2 and `last` appended (the LIMIT or OFFSET), and that last one's number.
        private func values(after: Int64, last: Int) -> (values: [SQLValue], lastIndex: Int) {
            var bound = values
            bound[1] = .integer(after)
            bound.append(.integer(Int64(last)))
            return (bound, bound.count)
        }

        /// Up to `limit` items after `after`, and whether more follow. Each arm walks its (patient, seq) index in order; the compound
        /// ORDER BY merges them and stops at the limit (EXPLAIN: MERGE (UNION ALL) of two index SEARCHes, no sort).
        /// INDEXED BY pins that plan so statistics (ANALYZE) can never switch a filtered feed to a time index plus
        /// a sort of the whole history.
        func rows(after: Int64, limit: Int, db: Connection) throws -> FeedRows {
            let (values, limitIndex) = values(after: after, last: limit + 1)
            let (timeColumn, noTime) = writeTimes ? (", " + CommitTimes.sampleColumn, ", NULL") : ("", "")
            let sql = """
                SELECT 0, seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value, components\(timeColumn)
                  FROM samples INDEXED BY samples_feed WHERE patient = ?1 AND seq > ?2\(conditions)
                UNION ALL
                SELECT 1, seq, uuid, type, NULL, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms, NULL, NULL\(noTime)
                  FROM tombstones INDEXED BY tombstones_feed WHERE patient = ?1 AND seq > ?2\(conditions)
                ORDER BY 2 LIMIT ?\(limitIndex)
                """
            var rows = FeedRows(lastSequence: after)
            rows.samples.reserveCapacity(min(limit, 10_000))
            var decoder = SampleRowDecoder()
            let statement = try db.cachedStatement(sql)
            try statement.bind(values)
            defer { statement.reset() }
            var count = 0
            while try statement.step() {
                count += 1
                if count > limit {
                    rows.hasMore = true
                    break
                }
                rows.lastSequence = statement.int64(1)
                if statement.int64(0) == 0 {
                    let sample = try decoder.sample(statement, offset: 1)
                    if writeTimes, let ms = statement.optionalInt64(13) { rows.writeTimes[sample.uuid] = SyncRules.date(milliseconds: ms) }
                    rows.samples.append(sample)
                } else {
                    rows.deleted.append(try decodeTombstoneArm(statement))
                }
            }
            return rows
        }

        /// The sequence of the `item`-th item after `after` (1-based), nil when there are fewer: the same merge
        /// as `rows`, reading only sequences.
        func sequence(ofItem item: Int, after: Int64, db: Connection) throws -> Int64? {
            let (values, offsetIndex) = values(after: after, last: item - 1)
            return try db.scalarInt64("""
                SELECT seq FROM samples INDEXED BY samples_feed WHERE patient = ?1 AND seq > ?2\(conditions)
                UNION ALL
                SELECT seq FROM tombstones INDEXED BY tombstones_feed WHERE patient = ?1 AND seq > ?2\(conditions)
                ORDER BY 1 LIMIT 1 OFFSET ?\(offsetIndex)
                """, values)
        }

        /// A deleted object from the tombstone arm: same columns as samples, `deleted_at_ms` in the metadata slot.
        private func decodeTombstoneArm(_ row: Statement) throws -> DeletedObject {
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
}
