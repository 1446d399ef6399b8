import CareSyncCore
import Foundation
import Testing
@testable import CareSyncStore

/// The store-side statistics fetch: SQL filters by patient, type, range, sources and user entry.
@Suite struct SQLiteStatisticsTests {
    static let day0 = Date(timeIntervalSince1970: 1_592_438_400)  // 2020-06-18T00:00:00Z

    static func steps(_ value: Double, at hour: Double, minutes: Double = 60, userEntered: Bool = false,
                      type: SampleType = .stepCount) -> SampleInput {
        SampleInput(type: type, value: value, start: day0.addingTimeInterval(hour * 3_600),
                    end: day0.addingTimeInterval(hour * 3_600 + minutes * 60),
                    metadata: userEntered ? ["wasUserEntered": .bool(true)] : ["device": .string("x")])
    }

    /// p1: watch 10:00–11:00 (600), phone 10:30–11:30 (400), phone user-entered 14:00 (50),
    /// phone 23:00 on the 17th to 01:00 on the 18th (120, straddles the range start);
    /// noise: another patient, another type.
    static func makeStore() throws -> SQLiteSyncStore { try makeFixture().store }

    static func makeFixture() throws -> StoreFixture {
        let fixture = try StoreFixture.make()
        let store = fixture.store
        let now = Date()
        _ = try store.upsert([steps(600, at: 10)], patient: "p1", source: "watch", now: now)
        _ = try store.upsert([steps(400, at: 10.5), steps(50, at: 14, userEntered: true), steps(120, at: -1, minutes: 120)],
                             patient: "p1", source: "phone", now: now)
        _ = try store.upsert([steps(9_999, at: 10)], patient: "p2", source: "watch", now: now)
        _ = try store.upsert([steps(777, at: 10, type: .distanceWalkingRunning)], patient: "p1", source: "watch", now: now)
        return fixture
    }

    func query(_ configure: (inout StatisticsQuery) -> Void = { _ in }) -> StatisticsQuery {
        var query = StatisticsQuery(type: .stepCount, start: Self.day0, end: Self.day0.addingTimeInterval(86_400),
                                    interval: .day, options: .cumulativeSum)
        configure(&query)
        return query
    }

    @Test func sumsOnlyThePatientsSamplesOfTheTypeInRange() throws {
        // 600 + 400 + 50 + half of 120 (its hour on the 18th) = 1,110.
        let store = try Self.makeStore()
        let result = try store.statistics(patient: "p1", query: query())
        #expect(result.buckets.count == 1)
        #expect(result.buckets[0].values.sum == 1_110)
    }

    @Test func priorityFiltersAndSourcesReachTheEngine() throws {
        let store = try Self.makeStore()
        // Watch first: the phone's 10:30–11:00 half is covered → 600 + 200 + 50 + 60 = 910.
        #expect(try store.statistics(patient: "p1", query: query { $0.priority = ["watch", "phone"] }).buckets[0].values.sum == 910)
        // Without the user-entered 50.
        #expect(try store.statistics(patient: "p1", query: query { $0.excludeUserEntered = true }).buckets[0].values.sum == 1_060)
        // Only the phone: 400 + 50 + 60.
        let phone = try store.statistics(patient: "p1", query: query { $0.sources = ["phone"]; $0.options = [.cumulativeSum, .separateBySource] })
        #expect(phone.buckets[0].values.sum == 510)
        #expect(phone.buckets[0].sources?.map(\.source) == ["phone"])
        // An empty source list (how the API hides a type the caller may not read) matches nothing.
        let none = try store.statistics(patient: "p1", query: query { $0.sources = [] })
        #expect(none.buckets.map(\.values.sum) == [nil])
    }

    @Test func storeMatchesTheEngineOverTheSameSamples() throws {
        let fixture = try Self.makeFixture()
        let store = fixture.store
        let all = try fixture.readAll(patient: "p1").items
        var input = StatisticsInput()
        for case .sample(let sample) in all { input.append(sample, for: .stepCount) }
        let hourly = query { $0.interval = .hour; $0.timeZone = "Europe/Berlin"; $0.priority = ["phone"] }
        #expect(try store.statistics(patient: "p1", query: hourly) == StatisticsEngine.run(try StatisticsPlan(hourly), input: input))
    }

    @Test func invalidQueriesFailBeforeReading() throws {
        let store = try Self.makeStore()
        #expect(throws: SyncError.validationFailed([ValidationProblem(
            index: nil, field: "options", message: "heartRate is discrete: options must be discreteAverage, discreteMin, "
                + "discreteMax or mostRecent, not cumulativeSum")])) {
            try store.statistics(patient: "p1", query: query { $0.type = .heartRate })
        }
    }
}
