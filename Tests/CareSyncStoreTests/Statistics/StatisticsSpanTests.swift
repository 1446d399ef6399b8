import CareSyncTestSupport
import CareSyncCore
import Foundation
import Testing
@testable import CareSyncStore

/// Migration 0002: the covering index `samples_span`, the `user_entered` flag and the `sample_spans`
/// bound that limits a cumulative scan to samples starting after `start - longest duration`.
@Suite struct StatisticsSpanTests {
    static let day0 = SQLiteStatisticsTests.day0  // 2020-06-18T00:00:00Z
    static let hour: TimeInterval = 3_600

    static func steps(_ value: Double, from start: TimeInterval, hours: Double) -> SampleInput {
        SampleInput(type: .stepCount, value: value, start: day0.addingTimeInterval(start * hour),
                    end: day0.addingTimeInterval((start + hours) * hour))
    }

    /// Daily sum of steps on day0 (UTC).
    static func daySum(_ store: SQLiteSyncStore, patient: String = "p1") throws -> Double? {
        let query = StatisticsQuery(type: .stepCount, start: day0, end: day0.addingTimeInterval(86_400),
                                    interval: .day, options: .cumulativeSum)
        return try store.statistics(patient: patient, query: query).buckets[0].values.sum
    }

    static func bound(_ store: SQLiteSyncStore, patient: String = "p1") throws -> Int64? {
        try store.database.read { try StatisticsFetch.longest($0, patient: patient, type: .stepCount) }
    }

    @Test func longSampleStartingWellBeforeTheRangeIsProrated() throws {
        let store = try StoreFixture.make().store
        // Ten days of one-hour samples before the range, then a 20-day sample ending 6 h into day0.
        let history = (1...240).map { Self.steps(1, from: -Double($0), hours: 1) }
        _ = try store.upsert(history, patient: "p1", source: "phone", now: Date())
        _ = try store.upsert([Self.steps(4_800, from: -474, hours: 480)], patient: "p1", source: "watch", now: Date())
        // 6 of its 480 hours fall on day0: 4,800 × 6 / 480 = 60; the hourly history ends at day0.
        #expect(try Self.daySum(store) == 60)
        #expect(try Self.bound(store) == 480 * 3_600_000)
    }

    @Test func boundRisesWhenALongerSampleArrives() throws {
        let store = try StoreFixture.make().store
        _ = try store.upsert([Self.steps(10, from: 2, hours: 1), Self.steps(10, from: -3, hours: 2)],
                             patient: "p1", source: "phone", now: Date())
        #expect(try Self.bound(store) == 2 * 3_600_000)
        #expect(try Self.daySum(store) == 10)
        // Three days long, ending 12 h into day0: 12 of its 72 h count → 72 × 12/72 = 12.
        _ = try store.upsert([Self.steps(72, from: -60, hours: 72)], patient: "p1", source: "watch", now: Date())
        #expect(try Self.bound(store) == 72 * 3_600_000)
        #expect(try Self.daySum(store) == 10 + 12)
        // A shorter one does not lower it; another patient has its own bound.
        _ = try store.upsert([Self.steps(1, from: 20, hours: 1)], patient: "p1", source: "watch", now: Date())
        #expect(try Self.bound(store) == 72 * 3_600_000)
        #expect(try Self.bound(store, patient: "p2") == nil)
    }

    @Test func deletesAndReplacementsNeverLowerTheBound() throws {
        let store = try StoreFixture.make().store
        let long = SampleInput(type: .stepCount, value: 300, start: Self.day0.addingTimeInterval(-290 * Self.hour),
                               end: Self.day0.addingTimeInterval(10 * Self.hour), syncIdentifier: "long", syncVersion: 1)
        let other = Self.steps(100, from: -90, hours: 100)  // 10 of its 100 h on day0 → 10
        _ = try store.upsert([long, other], patient: "p1", source: "watch", now: Date())
        #expect(try Self.daySum(store) == 10 + 10)
        // Replaced by a short version: the bound stays, the other long sample still counts.
        var short = long
        short.start = Self.day0.addingTimeInterval(9 * Self.hour)
        short.value = 5
        short.syncVersion = 2
        _ = try store.upsert([short], patient: "p1", source: "watch", now: Date())
        #expect(try Self.bound(store) == 300 * 3_600_000)
        #expect(try Self.daySum(store) == 5 + 10)
        _ = try store.delete(uuids: [], syncIdentifiers: ["long"], patient: "p1", source: "watch", now: Date())
        #expect(try Self.bound(store) == 300 * 3_600_000)
        #expect(try Self.daySum(store) == 10)
    }

    @Test func userEnteredFlagFollowsTheMetadata() throws {
        let store = try StoreFixture.make().store
        func input(_ metadata: [String: MetadataValue]) -> SampleInput {
            SampleInput(type: .stepCount, value: 1, start: Self.day0, end: Self.day0.addingTimeInterval(60), metadata: metadata)
        }
        _ = try store.upsert([input(["wasUserEntered": .bool(true)]), input(["wasUserEntered": .bool(false)]),
                              input(["wasUserEntered": .string("true")]), input([:])], patient: "p1", source: "s", now: Date())
        let flags = try store.database.read { try $0.fetchAll("SELECT user_entered FROM samples ORDER BY seq") { $0.int64(0) } }
        #expect(flags == [1, 0, 0, 0])
        // The same rule as the SQL of the migration's backfill.
        let backfill = try store.database.read { try $0.fetchAll("""
            SELECT metadata IS NOT NULL AND json_type(metadata, '$.wasUserEntered') IS 'true' FROM samples ORDER BY seq
            """) { $0.int64(0) } }
        #expect(backfill == flags)
    }

    /// Every shape of the statistics statement is an index-only scan of samples_span, in order (no sort).
    @Test(arguments: [false, true], [nil, ["watch"], ["phone", "watch"]] as [Set<String>?])
    func everyStatisticsQueryIsCoveredBySamplesSpan(excludeUserEntered: Bool, sources: Set<String>?) throws {
        let store = try SQLiteStatisticsTests.makeStore()
        for (type, option) in [(SampleType.stepCount, StatisticsOptions.cumulativeSum), (.heartRate, .discreteAverage)] {
            var query = StatisticsQuery(type: type, start: Self.day0, end: Self.day0.addingTimeInterval(86_400),
                                        interval: .day, options: option)
            query.excludeUserEntered = excludeUserEntered
            query.sources = sources
            let plan = try StatisticsPlan(query)
            let (sql, arguments) = StatisticsFetch.statement(patient: "p1", plan: plan, longest: 3_600_000)
            let details = try store.database.read { try $0.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) { $0.string(3) } }
            #expect(details.count == 1, "\(details)")
            #expect(details.first?.hasPrefix("SEARCH samples USING COVERING INDEX samples_span (patient=? AND type=? AND start_ms>") == true,
                    "\(details)")
            #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
        }
    }

    @Test func migrationBackfillsFlagAndBoundsOfExistingRows() throws {
        let directory = try TemporaryDirectory("caresync-span")
        let only0001 = directory.url.appendingPathComponent("m1")
        let all = directory.url.appendingPathComponent("m2")
        for url in [only0001, all] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        let files = try FileManager.default.contentsOfDirectory(atPath: StoreFixture.migrationsURL.path).filter { $0.hasSuffix(".sql") }
        for file in files {
            let source = StoreFixture.migrationsURL.appendingPathComponent(file)
            if file.hasPrefix("0001") { try FileManager.default.copyItem(at: source, to: only0001.appendingPathComponent(file)) }
            try FileManager.default.copyItem(at: source, to: all.appendingPathComponent(file))
        }
        let database = try Database(path: directory.path("old.sqlite"))
        try Migrator(directory: only0001).migrate(database)
        try database.write { db in
            try db.execute("""
                INSERT INTO samples (seq, patient, uuid, type, value, start_ms, end_ms, source, metadata) VALUES
                  (1, 'p1', x'01', 'stepCount', 1, 0, 5000, 's', '{"wasUserEntered":true}'),
                  (2, 'p1', x'02', 'stepCount', 1, 100, 900, 's', NULL),
                  (3, 'p1', x'03', 'heartRate', 60, 0, 0, 's', '{"wasUserEntered":false}'),
                  (4, 'p2', x'04', 'stepCount', 1, 0, 70, 's', NULL)
                """)
        }
        try Migrator(directory: all).migrate(database)
        try database.read { db in
            #expect(try db.fetchAll("SELECT user_entered FROM samples ORDER BY seq") { $0.int64(0) } == [1, 0, 0, 0])
            let spans = try db.fetchAll("SELECT patient, type, max_duration_ms FROM sample_spans ORDER BY patient, type") {
                "\($0.string(0))/\($0.string(1))/\($0.int64(2))"
            }
            #expect(spans == ["p1/heartRate/0", "p1/stepCount/5000", "p2/stepCount/70"])
            #expect(try db.scalarInt64("SELECT count(*) FROM sqlite_master WHERE name = 'samples_time'") == 0)
        }
    }
}

extension StatisticsSpanTests {
    /// A component's statistics read the correlation rows through the partial index samples_correlation,
    /// index-only and in order, and the type's own rows through samples_span as before.
    @Test(arguments: [false, true], [nil, ["watch"]] as [Set<String>?])
    func componentsOfCorrelationsAreCoveredBySamplesCorrelation(excludeUserEntered: Bool, sources: Set<String>?) throws {
        let store = try SQLiteStatisticsTests.makeStore()
        for (type, position) in SampleType.bloodPressureDiastolic.correlations + SampleType.bloodPressureSystolic.correlations {
            var query = StatisticsQuery(type: type.components[position], start: Self.day0, end: Self.day0.addingTimeInterval(86_400),
                                        interval: .day, options: .discreteAverage)
            query.excludeUserEntered = excludeUserEntered
            query.sources = sources
            let plan = try StatisticsPlan(query)
            let (sql, arguments) = StatisticsFetch.statement(patient: "p1", plan: plan, longest: 0, component: (type, position))
            #expect(sql.contains(position == 0 ? "SELECT start_ms, end_ms, value," : "SELECT start_ms, end_ms, second_value,"))
            let details = try store.database.read { try $0.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) { $0.string(3) } }
            #expect(details.count == 1, "\(details)")
            #expect(details.first?.hasPrefix("SEARCH samples USING COVERING INDEX samples_correlation (patient=? AND type=? AND start_ms>") == true,
                    "\(details)")
            #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
        }
    }
}
