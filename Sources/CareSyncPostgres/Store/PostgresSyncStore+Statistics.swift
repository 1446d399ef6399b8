import CareSyncCore
import Foundation

extension PostgresSyncStore {
    /// Statistics over a patient's live samples (api.md "Statistics"): validates the query first
    /// (`SyncError.validationFailed`), lets SQL pick the samples from one snapshot, then buckets them in one pass.
    public func statistics(patient: String, query: StatisticsQuery) throws -> StatisticsCollection {
        let plan = try StatisticsPlan(query)
        let input = try database.read { db in try PostgresStatisticsFetch.input(db, patient: patient, plan: plan) }
        return StatisticsEngine.run(plan, input: input)
    }
}

/// The SQL half of statistics, as SQLite's `StatisticsFetch`: an index-only range scan of `samples_span`
/// in start order, bounded below for cumulative and category types by the longest stored sample
/// (`sample_spans`); a component of a correlation also reads that component of the correlation's rows
/// through `samples_correlation`.
enum PostgresStatisticsFetch {
    /// The statement text and its parameters for `plan`; `longest` is the patient's longest sample of the type
    /// read. With `component`, it reads that component (0: `value`, 1: `second_value`) of the rows of a
    /// correlation holding the query's type instead of the type's own rows; of a food (a component set), the
    /// `components` text, from which `input` takes the type's value (`ComponentCoding`).
    static func statement(patient: String, plan: StatisticsPlan, longest: Int64?,
                          component: (correlation: SampleType, position: Int)? = nil) -> (sql: String, parameters: [PostgresValue]) {
        let query = plan.query
        let inSet = component?.correlation.definition.hasComponentSet ?? false
        let column = component.map { inSet ? "components" : $0.position == 0 ? "value" : "second_value" } ?? "value"
        var sql = """
            SELECT start_ms, end_ms, \(column), source FROM samples
            WHERE patient = $1 AND type = $2 AND start_ms < $4
            """
        if component != nil { sql += inSet ? " AND components IS NOT NULL" : " AND second_value IS NOT NULL" }
        var parameters: [PostgresValue] = [.text(patient), .text((component?.correlation ?? query.type).rawValue),
                                           .int64(plan.startMilliseconds), .int64(plan.endMilliseconds)]
        if query.countsOverlap {
            // end_ms > $3 and end_ms - start_ms <= longest imply start_ms > $3 - longest.
            sql += " AND start_ms > $5 AND (start_ms >= $3 OR end_ms > $3)"
            parameters.append(.int64(plan.startMilliseconds - max(0, longest ?? 0) - 1))
        } else {
            sql += " AND start_ms >= $3"
        }
        if query.excludeUserEntered { sql += " AND NOT user_entered" }
        if let sources = query.sources {
            // An empty list matches nothing (a type the caller may not read).
            let names = sources.sorted()
            let placeholders = names.indices.map { "$\($0 + parameters.count + 1)" }
            sql += names.isEmpty ? " AND false" : " AND source IN (" + placeholders.joined(separator: ", ") + ")"
            parameters += names.map { .text($0) }
        }
        sql += " ORDER BY start_ms"
        return (sql, parameters)
    }

    /// Reads the rows of `plan` for `patient`: the type's own samples, then its component in every correlation
    /// holding it; call inside a read transaction. The engine sorts the rows when a correlation added some.
    static func input(_ db: PostgresConnection, patient: String, plan: StatisticsPlan) throws -> StatisticsInput {
        var input = StatisticsInput()
        let type = plan.query.type
        let reads: [(correlation: SampleType, position: Int)?] = [nil] + plan.query.countedCorrelations.map { $0 }
        for component in reads {
            let longest = try db.query("SELECT max_duration_ms FROM sample_spans WHERE patient = $1 AND type = $2",
                                       [.text(patient), .text((component?.correlation ?? type).rawValue)]).first { try $0.int64(0) }
            let (sql, parameters) = statement(patient: patient, plan: plan, longest: longest, component: component)
            let rows = try db.query(sql, parameters)
            let inSet = component?.correlation.definition.hasComponentSet ?? false
            for index in 0..<rows.count {
                let row = rows[index]
                // A food's components: the type's value, or nothing when this food does not hold it.
                let value = inSet ? try ComponentCoding.decode(try row.optionalString(2))[type] : try row.double(2)
                guard let value else { continue }
                let source = input.sourceIndex(try row.string(3))
                input.append(StatisticsRow(start: try row.int64(0), end: try row.int64(1), value: value, source: source))
            }
        }
        return input
    }
}
