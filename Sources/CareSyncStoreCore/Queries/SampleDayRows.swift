import CareSyncCore
import Foundation

/// The figures per patient, local day, source and type of `sample_days` (SQLite migration 0027, PostgreSQL 0019), in
/// either dialect: kept up to date in each write transaction in the patient's time zone (`sample_day_zones` names the
/// zone they are in), read by status and monitoring without touching the samples (docs/status.md).
public enum SampleDayRows {
    /// Brings the figures of every patient `changes` touched up to date, inside the write transaction, before commit:
    /// an insert adds to its days' figures; a removal has each (day, source, type) it touched counted again from the
    /// samples (exact, newest start included); a patient whose figures are missing or in another zone than the
    /// patient's has them rebuilt from every live sample (the first write after a time-zone change or an upgrade).
    public static func record<DB: QueryConnection>(_ db: DB, _ changes: SampleDayChanges) throws {
        guard !changes.isEmpty else { return }
        for patient in Set(changes.added.keys).union(changes.removed.keys).sorted() {
            let (zone, kept) = try zones(db, patient)
            guard kept == zone.identifier else {
                try rebuild(db, patient: patient, zone: zone)
                continue
            }
            if let added = changes.added[patient], let earliest = added.map(\.start).min(), let latest = added.map(\.end).max() {
                var tally = SampleDayTally(zone: zone, covering: earliest, through: latest)
                for row in added { tally.add(source: row.source, type: row.type, start: row.start, end: row.end, value: row.value) }
                for figures in tally.days { try add(db, patient: patient, figures) }
            }
            var touched = Set<Touched>()
            for row in changes.removed[patient] ?? [] {
                let first = LocalDayStarts.day(of: row.start, in: zone)
                let last = row.type.isCumulative ? LocalDayStarts.day(of: max(row.start, row.end), in: zone) : first
                for n in 0...(last.daysSince1970 - first.daysSince1970) {
                    touched.insert(Touched(day: first.adding(days: n), source: row.source, type: row.type))
                }
            }
            for key in touched { try recount(db, patient: patient, zone: zone, key) }
        }
    }

    /// The figures of each patient (id to zone) from `first` through `last` in its zone, every patient in the map.
    public static func read<DB: QueryConnection>(_ db: DB, patients: [String: TimeZone], from first: CalendarDay,
                                                 through last: CalendarDay) throws -> [String: [SampleDay]] {
        var figures: [String: [SampleDay]] = [:]
        for (patient, zone) in patients { figures[patient] = try read(db, patient: patient, zone: zone, from: first, through: last) }
        return figures
    }

    /// The figures of `patient` from `first` through `last` in `zone`: the kept rows when they are in that zone, else
    /// counted from the time index (every live sample reaching into the days).
    static func read<DB: QueryConnection>(_ db: DB, patient: String, zone: TimeZone, from first: CalendarDay,
                                          through last: CalendarDay) throws -> [SampleDay] {
        guard try keptZone(db, patient) == zone.identifier else {
            return try count(db, patient: patient, zone: zone, from: first, through: last)
        }
        let p = DB.parameter
        return try db.fetch("""
            SELECT day, source, type, starts, newest_start_ms, counted, total FROM sample_days
             WHERE patient = \(p(1)) AND day >= \(p(2)) AND day <= \(p(3))
            """, [.text(patient), .integer(Int64(first.daysSince1970)), .integer(Int64(last.daysSince1970))]) { row in
            SampleDay(day: CalendarDay(daysSince1970: Int(try row.integer(0))), source: try row.text(1), type: try sampleType(try row.text(2)),
                      starts: Int(try row.integer(3)), newestStart: try row.optionalInteger(4).map(SyncRules.date(milliseconds:)),
                      counted: Int(try row.integer(5)), sum: try row.real(6))
        }
    }

    /// A (day, source, type) whose figures a removal changed.
    struct Touched: Hashable {
        let day: CalendarDay
        let source: String
        let type: SampleType
    }

    /// The patient's time zone (UTC for a patient without a record or with a zone this machine does not know), and the
    /// zone its kept figures are in (nil: none kept), in one statement.
    static func zones<DB: QueryConnection>(_ db: DB, _ patient: String) throws -> (patient: TimeZone, kept: String?) {
        let p = DB.parameter
        let names = try db.fetchFirst("""
            SELECT (SELECT time_zone FROM patients WHERE id = \(p(1))), (SELECT time_zone FROM sample_day_zones WHERE patient = \(p(2)))
            """, [.text(patient), .text(patient)]) { (try $0.optionalText(0), try $0.optionalText(1)) }
        return (names?.0.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!, names?.1)
    }

    /// The zone the patient's kept figures are in, nil when none are kept.
    static func keptZone<DB: QueryConnection>(_ db: DB, _ patient: String) throws -> String? {
        try db.fetchFirst("SELECT time_zone FROM sample_day_zones WHERE patient = \(DB.parameter(1))", [.text(patient)]) { try $0.text(0) }
    }

    /// Adds `figures` to the kept row of its (patient, day, source, type).
    static func add<DB: QueryConnection>(_ db: DB, patient: String, _ figures: SampleDay) throws {
        let p = DB.parameter
        try db.run("""
            INSERT INTO sample_days (patient, day, source, type, starts, newest_start_ms, counted, total)
            VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)), \(p(6)), \(p(7)), \(p(8)))
            ON CONFLICT (patient, day, source, type) DO UPDATE SET
              starts = sample_days.starts + excluded.starts, counted = sample_days.counted + excluded.counted,
              total = sample_days.total + excluded.total,
              newest_start_ms = CASE WHEN sample_days.newest_start_ms IS NULL
                                       OR excluded.newest_start_ms > sample_days.newest_start_ms
                                     THEN excluded.newest_start_ms ELSE sample_days.newest_start_ms END
            """, values(patient, figures))
    }

    /// Replaces the kept row of (patient, day, source, type) by `figures`.
    static func replace<DB: QueryConnection>(_ db: DB, patient: String, _ figures: SampleDay) throws {
        let p = DB.parameter
        try db.run("""
            INSERT INTO sample_days (patient, day, source, type, starts, newest_start_ms, counted, total)
            VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)), \(p(6)), \(p(7)), \(p(8)))
            ON CONFLICT (patient, day, source, type) DO UPDATE SET starts = excluded.starts, newest_start_ms = excluded.newest_start_ms,
              counted = excluded.counted, total = excluded.total
            """, values(patient, figures))
    }

    /// The parameters of a row.
    static func values(_ patient: String, _ f: SampleDay) -> [QueryValue] {
        [.text(patient), .integer(Int64(f.day.daysSince1970)), .text(f.source), .text(f.type.rawValue), .integer(Int64(f.starts)),
         f.newestStart.map { .integer(SyncRules.milliseconds($0)) } ?? .null, .integer(Int64(f.counted)), .real(f.sum)]
    }

    /// Counts one (day, source, type) again from the samples and stores it (or removes the row when nothing is left).
    static func recount<DB: QueryConnection>(_ db: DB, patient: String, zone: TimeZone, _ key: Touched) throws {
        let counted = try count(db, patient: patient, zone: zone, from: key.day, through: key.day, type: key.type, source: key.source)
        if let figures = counted.first {
            try replace(db, patient: patient, figures)
        } else {
            let p = DB.parameter
            try db.run("DELETE FROM sample_days WHERE patient = \(p(1)) AND day = \(p(2)) AND source = \(p(3)) AND type = \(p(4))",
                       [.text(patient), .integer(Int64(key.day.daysSince1970)), .text(key.source), .text(key.type.rawValue)])
        }
    }

    /// Replaces the patient's kept figures by figures counted from every live sample, in `zone`.
    static func rebuild<DB: QueryConnection>(_ db: DB, patient: String, zone: TimeZone) throws {
        let p = DB.parameter
        try db.run("DELETE FROM sample_days WHERE patient = \(p(1))", [.text(patient)])
        var earliest: Int64?, latest: Int64?
        for (type, longest) in try spans(db, patient) {
            let first = try db.fetchFirst("SELECT start_ms FROM samples WHERE patient = \(p(1)) AND type = \(p(2)) ORDER BY start_ms LIMIT 1",
                                          [.text(patient), .text(type.rawValue)]) { try $0.integer(0) }
            let last = try db.fetchFirst("SELECT start_ms FROM samples WHERE patient = \(p(1)) AND type = \(p(2)) ORDER BY start_ms DESC LIMIT 1",
                                         [.text(patient), .text(type.rawValue)]) { try $0.integer(0) }
            if let first, let last {
                earliest = min(earliest ?? first, first)
                latest = max(latest ?? last + longest, last + longest)
            }
        }
        if let earliest, let latest {
            let first = LocalDayStarts.day(of: earliest, in: zone), last = LocalDayStarts.day(of: latest, in: zone)
            // A month at a time, so a patient's whole history is never in memory at once.
            var from = first
            while from <= last {
                let through = min(last, from.adding(days: 29))
                for figures in try count(db, patient: patient, zone: zone, from: from, through: through) {
                    try replace(db, patient: patient, figures)
                }
                from = through.adding(days: 1)
            }
        }
        try db.run("""
            INSERT INTO sample_day_zones (patient, time_zone) VALUES (\(p(1)), \(p(2)))
            ON CONFLICT (patient) DO UPDATE SET time_zone = excluded.time_zone
            """, [.text(patient), .text(zone.identifier)])
    }

    /// Each type the patient has a sample of, with its longest duration (ms) ever stored (`sample_spans`).
    static func spans<DB: QueryConnection>(_ db: DB, _ patient: String) throws -> [(SampleType, Int64)] {
        try db.fetch("SELECT type, max_duration_ms FROM sample_spans WHERE patient = \(DB.parameter(1)) ORDER BY type", [.text(patient)]) {
            (try sampleType(try $0.text(0)), try $0.integer(1))
        }
    }

    /// The catalogue type stored as `name`.
    static func sampleType(_ name: String) throws -> SampleType {
        guard let type = SampleType(rawValue: name) else { throw StoreCorruption("a stored sample type outside the catalogue: \(name)") }
        return type
    }

    /// The figures from `first` through `last` in `zone` counted from the live samples through the time index `samples_span`:
    /// per type (one only, when given), those starting in the days or, for a cumulative type, up to its longest
    /// duration before them; of one source, when given.
    static func count<DB: QueryConnection>(_ db: DB, patient: String, zone: TimeZone, from first: CalendarDay, through last: CalendarDay,
                                           type only: SampleType? = nil, source: String? = nil) throws -> [SampleDay] {
        var tally = SampleDayTally(zone: zone, from: first, through: last)
        let p = DB.parameter
        for (type, longest) in try spans(db, patient) where only == nil || only == type {
            let lookback = type.isCumulative ? longest : 0
            var values: [QueryValue] = [.text(patient), .text(type.rawValue), .integer(tally.range.lowerBound - lookback),
                                        .integer(tally.range.upperBound)]
            if let source { values.append(.text(source)) }
            let rows = try db.fetch("""
                SELECT source, start_ms, end_ms, value FROM samples
                 WHERE patient = \(p(1)) AND type = \(p(2)) AND start_ms >= \(p(3)) AND start_ms < \(p(4))\(source == nil ? "" : " AND source = \(p(5))")
                """, values) { (try $0.text(0), try $0.integer(1), try $0.integer(2), try $0.real(3)) }
            for (source, start, end, value) in rows { tally.add(source: source, type: type, start: start, end: end, value: value) }
        }
        return tally.days
    }
}
