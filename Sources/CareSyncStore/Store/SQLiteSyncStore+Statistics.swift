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
    /// The statement text and its arguments for `plan`; `longest` is the patient's longest sample of
    /// the type read (`sample_spans`), or nil when none was ever stored. With `component`, it reads that
    /// component (0: `value`, 1: `second_value`) of the rows of a correlation holding the query's type
    /// (blood pressure rows for `bloodPressureSystolic`) instead of the type's own rows; of a food, whose components
    /// are a set, it reads the `components` text, and `input` takes the type's value from it (`ComponentCoding`).
    ///
    /// `samples_span (patient, type, start_ms, end_ms, value, source, user_entered)` covers the query, so
    /// it is an index-only range scan, in start order (no sort); a component of correlation rows is read
    /// through the partial index `samples_correlation` the same way. Discrete samples count by their start,
    /// so the scan is `[start, end)`. A cumulative or category sample counts if any of it reaches into the range: it
    /// ends after `start`, and since it lasts at most `longest`, it starts after `start - longest`;
    /// that lower bound is what keeps the scan from walking the patient's whole history before `start`.
    static func statement(patient: String, plan: StatisticsPlan, longest: Int64?,
                          component: (correlation: SampleType, position: Int)? = nil) -> (sql: String, arguments: [SQLValue]) {
        let query = plan.query
        let inSet = component?.correlation.definition.hasComponentSet ?? false
        let column = component.map { inSet ? "components" : $0.position == 0 ? "value" : "second_value" } ?? "value"
        var sql = """
            SELECT start_ms, end_ms, \(column), source FROM samples
            WHERE patient = ?1 AND type = ?2 AND start_ms < ?4
            """
        if component != nil { sql += inSet ? " AND components IS NOT NULL" : " AND second_value IS NOT NULL" }
        var arguments: [SQLValue] = [.text(patient), .text((component?.correlation ?? query.type).rawValue),
                                     .integer(plan.startMilliseconds), .integer(plan.endMilliseconds)]
        if query.countsOverlap {
            // end_ms > ?3 and end_ms - start_ms <= longest imply start_ms > ?3 - longest.
            sql += " AND start_ms > ?5 AND (start_ms >= ?3 OR end_ms > ?3)"
            arguments.append(.integer(plan.startMilliseconds - max(0, longest ?? 0) - 1))
        } else {
            sql += " AND start_ms >= ?3"
        }
        if query.excludeUserEntered { sql += " AND user_entered = 0" }
        if let sources = query.sources {
            let names = sources.sorted()
            sql += " AND source IN (" + names.indices.map { "?\($0 + arguments.count + 1)" }.joined(separator: ", ") + ")"
            arguments += names.map { .text($0) }
        }
        sql += " ORDER BY start_ms"
        return (sql, arguments)
    }

    /// The longest duration stored for (patient, type), from `sample_spans`; nil if none.
    static func longest(_ db: Connection, patient: String, type: SampleType) throws -> Int64? {
        try db.scalarInt64("SELECT max_duration_ms FROM sample_spans WHERE patient = ? AND type = ?",
                           [.text(patient), .text(type.rawValue)])
    }

    /// Reads the rows of `plan` for `patient`: the type's own samples, then its component in every
    /// correlation holding it; call inside a read transaction. The engine sorts the rows when a
    /// correlation added some (each statement is in start order, the whole not).
    static func input(_ db: Connection, patient: String, plan: StatisticsPlan) throws -> StatisticsInput {
        var input = StatisticsInput()
        var sources = SourceNames()
        let type = plan.query.type
        let reads: [(correlation: SampleType, position: Int)?] = [nil] + plan.query.countedCorrelations.map { $0 }
        for component in reads {
            let longest = try longest(db, patient: patient, type: component?.correlation ?? type)
            let (sql, arguments) = statement(patient: patient, plan: plan, longest: longest, component: component)
            let statement = try db.cachedStatement(sql)
            try statement.bind(arguments)
            defer { statement.reset() }
            let handle = statement.handle
            let inSet = component?.correlation.definition.hasComponentSet ?? false
            while try statement.step() {
                var value = sqlite3_column_double(handle, 2)
                if inSet {
                    // A food's components: the type's value, or nothing when this food does not hold it.
                    guard let held = try ComponentCoding.decode(statement.optionalString(2))[type] else { continue }
                    value = held
                }
                let source = sources.index(sqlite3_column_text(handle, 3), Int(sqlite3_column_bytes(handle, 3)), into: &input)
                input.append(StatisticsRow(start: sqlite3_column_int64(handle, 0), end: sqlite3_column_int64(handle, 1),
                                           value: value, source: source))
            }
        }
        return input
    }

    /// Source names seen so far, matched on their bytes so a row costs no `String` (a query has few sources).
    struct SourceNames {
        private var known: [(bytes: [UInt8], index: Int32)] = []
        private var last = -1

        mutating func index(_ text: UnsafePointer<UInt8>?, _ count: Int, into input: inout StatisticsInput) -> Int32 {
            let bytes = UnsafeBufferPointer(start: text, count: text == nil ? 0 : count)
            if last >= 0 && Self.same(known[last].bytes, bytes) { return known[last].index }
            for position in known.indices where Self.same(known[position].bytes, bytes) {
                last = position
                return known[position].index
            }
            let name = String(decoding: bytes, as: UTF8.self)
            known.append((Array(bytes), input.sourceIndex(name)))
            last = known.count - 1
            return known[last].index
        }

        /// Byte equality by length and `memcmp` (the generic `elementsEqual` showed up in profiles).
        private static func same(_ stored: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard stored.count == bytes.count else { return false }
            guard let base = bytes.baseAddress, !stored.isEmpty else { return true }
            return stored.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
        }
    }
}
