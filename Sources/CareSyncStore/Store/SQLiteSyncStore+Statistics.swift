import CSQLite
import CareSyncCore
import Foundation

extension SQLiteSyncStore {
    /// Statistics over a patient's live samples (api.md "Statistics"): validates the query first
    /// (`SyncError.validationFailed`), lets SQL pick the samples, then buckets them in one pass.
    ///
    /// The samples are read in one read transaction, so the figures come from one snapshot.
    public func statistics(patient: String, query: StatisticsQuery) throws -> StatisticsCollection {
        let plan = try StatisticsPlan(query)
        let input = try database.read { db in try StatisticsFetch.input(db, patient: patient, plan: plan) }
        return StatisticsEngine.run(plan, input: input)
    }
}

/// The SQL half of statistics: selects the rows the engine needs, in start order, into compact rows.
enum StatisticsFetch {
    /// The statement text and its arguments for `plan`.
    ///
    /// `samples_time (patient, type, start_ms)` bounds the scan above by the range's end and gives the
    /// order. Discrete samples count by their start, so the scan is bounded below too; a cumulative
    /// sample counts if it reaches into the range, so earlier rows are checked on `end_ms`.
    static func statement(patient: String, plan: StatisticsPlan) -> (sql: String, arguments: [SQLValue]) {
        let query = plan.query
        var sql = """
            SELECT start_ms, end_ms, value, source FROM samples
            WHERE patient = ?1 AND type = ?2 AND start_ms < ?4
            """
        sql += query.type.aggregation == .cumulative ? " AND (start_ms >= ?3 OR end_ms > ?3)" : " AND start_ms >= ?3"
        if query.excludeUserEntered {
            sql += " AND (metadata IS NULL OR json_type(metadata, '$.wasUserEntered') IS NOT 'true')"
        }
        var arguments: [SQLValue] = [.text(patient), .text(query.type.rawValue),
                                     .integer(plan.startMilliseconds), .integer(plan.endMilliseconds)]
        if let sources = query.sources {
            let names = sources.sorted()
            sql += " AND source IN (" + names.indices.map { "?\($0 + 5)" }.joined(separator: ", ") + ")"
            arguments += names.map { .text($0) }
        }
        sql += " ORDER BY start_ms"
        return (sql, arguments)
    }

    /// Reads the rows of `plan` for `patient`; call inside a read transaction.
    static func input(_ db: Connection, patient: String, plan: StatisticsPlan) throws -> StatisticsInput {
        let (sql, arguments) = statement(patient: patient, plan: plan)
        let statement = try db.cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var input = StatisticsInput()
        var sources = SourceNames()
        let handle = statement.handle
        while try statement.step() {
            let source = sources.index(sqlite3_column_text(handle, 3), Int(sqlite3_column_bytes(handle, 3)), into: &input)
            input.append(StatisticsRow(start: sqlite3_column_int64(handle, 0), end: sqlite3_column_int64(handle, 1),
                                       value: sqlite3_column_double(handle, 2), source: source))
        }
        return input
    }

    /// Source names seen so far, matched on their bytes so a row costs no `String` (a query has few sources).
    struct SourceNames {
        private var known: [(bytes: [UInt8], index: Int32)] = []
        private var last = -1

        mutating func index(_ text: UnsafePointer<UInt8>?, _ count: Int, into input: inout StatisticsInput) -> Int32 {
            let bytes = UnsafeBufferPointer(start: text, count: text == nil ? 0 : count)
            if last >= 0 && known[last].bytes.elementsEqual(bytes) { return known[last].index }
            for (position, entry) in known.enumerated() where entry.bytes.elementsEqual(bytes) {
                last = position
                return entry.index
            }
            let name = String(decoding: bytes, as: UTF8.self)
            known.append((Array(bytes), input.sourceIndex(name)))
            last = known.count - 1
            return known[last].index
        }
    }
}
