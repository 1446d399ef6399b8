import CareSyncCore
import CareSyncParallel
import Foundation
import Synchronization

/// The anchored change feed: one page read in the caller's single read transaction, a large page in two halves
/// on two connections at once when both see the same snapshot.
enum FeedQuery {
    /// Pages of at least this many items are read in two halves at once, when a second reader is idle.
    static let splitMinimum = 2_000

    /// The page of `query` (whose anchor is already validated as `after`) and its next anchor. `db` is in a
    /// read transaction whose snapshot has `head` and `horizon`; `database` lends a second reader for a split read.
    static func page(_ query: ChangeQuery, after: Int64, head: Int64, horizon: Int64, storeID: String,
                     db: Connection, database: Database, cores: Int = Parallel.cores,
                     splitMinimum: Int = splitMinimum) throws -> ChangeSet {
        let limit = max(1, query.limit)
        let filters = Filters(query)
        let rows: FeedRows
        if limit >= max(2, splitMinimum), cores > 1,
           let middle = try filters.sequence(ofItem: limit / 2, after: after, db: db),
           let halves = try database.readIfIdle({ other in
               try readHalves(filters, after: after, middle: middle, limit: limit, head: head, horizon: horizon,
                              db: db, other: other)
           }) ?? nil {
            rows = halves
        } else {
            rows = try filters.rows(after: after, limit: limit, db: db)
        }
        return ChangeSet(samples: rows.samples, deletedObjects: rows.deleted,
                         anchor: Anchor(storeID: storeID, sequence: rows.hasMore ? rows.lastSequence : query.lastPosition(head: head, after: after),
                                        horizon: horizon),
                         hasMore: rows.hasMore, writeTimes: rows.writeTimes)
    }

    /// The first `limit / 2` items (up to `middle`) on `db` and the rest on `other` at once; nil when `other`'s
    /// snapshot is not `db`'s (a write or a purge committed between the two), as head and horizon tell: every
    /// change to samples and tombstones takes a change-log sequence, every purge raises the horizon.
    static func readHalves(_ filters: Filters, after: Int64, middle: Int64, limit: Int, head: Int64, horizon: Int64,
                                   db: Connection, other: Connection) throws -> FeedRows? {
        guard try StoreQueries.head(other) == head, try StoreQueries.purgeHorizon(other) == horizon else { return nil }
        let first = limit / 2
        let connections = [LentConnection(connection: db), LentConnection(connection: other)]
        var halves = Parallel.map(2) { half in
            Result {
                half == 0 ? try filters.rows(after: after, limit: first, db: connections[0].connection)
                          : try filters.rows(after: middle, limit: limit - first, db: connections[1].connection)
            }
        }
        // Taken out of `halves`, so the first half's arrays are not shared and grow in place instead of being copied.
        let second = try halves.removeLast().get()
        var rows = try halves.removeLast().get()
        rows.append(second)
        return rows
    }

    /// A connection lent to one of the two halves' threads while its owner waits for both.
    /// @unchecked: `take` hands it out once (asserted), so one thread at a time uses it.
    private final class LentConnection: @unchecked Sendable {
        private let lent: Connection
        private let taken = Atomic<Bool>(false)
        init(connection: Connection) { lent = connection }
        /// The connection; traps when taken twice.
        var connection: Connection {
            precondition(!taken.exchange(true, ordering: .acquiringAndReleasing), "a lent connection taken twice")
            return lent
        }
    }
}

/// Items of a feed page as read, in sequence order within samples and within deleted objects.
struct FeedRows: Sendable {
    var samples: [Sample] = []
    var deleted: [DeletedObject] = []
    /// The samples' write times by uuid, when the query asked for them.
    var writeTimes: [UUID: Date] = [:]
    /// The sequence of the last item.
    var lastSequence: Int64
    /// Whether items follow the last one.
    var hasMore = false

    /// Appends the rows read after these.
    mutating func append(_ later: FeedRows) {
        samples += later.samples
        deleted += later.deleted
        writeTimes.merge(later.writeTimes) { $1 }
        if !later.samples.isEmpty || !later.deleted.isEmpty { lastSequence = later.lastSequence }
        hasMore = later.hasMore
    }
}
