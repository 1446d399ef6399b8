import CareSyncReferenceModel
import Foundation
import Testing
@testable import CareSyncCore

/// Daily step totals (docs/fhir.md "Daily step totals"): their ids, local-day periods, which searches ask for them,
/// paging, and the sums a reader takes from the statistics.
@Suite struct DailyTotalTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// Whether `text` is a FHIR id: 1–64 characters of A–Z, a–z, 0–9, '-' and '.'.
    static func isFHIRID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 46
        }
    }

    @Test(arguments: ["alice", "p-1", String(repeating: "a", count: 47), String(repeating: "b", count: 48),
                      "alice_smith", "dr.who", String(repeating: "z_", count: 32)])
    func idsRoundTripAndAreValidFHIRIds(patient: String) throws {
        let day = CalendarDay(year: 2020, month: 10, day: 25)
        let id = DailyTotalID(patient: patient, day: day)
        #expect(Self.isFHIRID(id.text), "\(id.text)")
        let parsed = try #require(DailyTotalID(parsing: id.text))
        #expect(parsed == id && parsed.day == day && parsed.names(patient))
        #expect(!parsed.names(patient + "x") && !parsed.names("bob"))
        #expect(ObservationMapper.uuid(ofID: id.text) == nil)
        let plain = patient.utf8.count <= 47 && !patient.contains("_") && !patient.contains(".")
        #expect(id.text == (plain ? "steps.2020-10-25.\(patient)" : "steps.2020-10-25.h.\(DailyTotalID.digest(patient))"))
    }

    @Test(arguments: ["", "steps.2020-10-25", "steps.2020-02-30.alice", "steps.2020-10-25.", "steps.2020-10-25.a_b",
                      "steps.2020-10-25.h.abc", "steps.2020-10-25.x." + String(repeating: "0", count: 40),
                      "day.2020-10-25.alice", "0190a3c4-0000-7000-8000-000000000000"])
    func otherTextsAreNoDailyTotalIds(text: String) {
        #expect(DailyTotalID(parsing: text) == nil)
    }

    @Test func aDSTDayIsItsLocalMidnightsWithTheirOffsets() {
        let autumn = CalendarDay(year: 2020, month: 10, day: 25), spring = CalendarDay(year: 2020, month: 3, day: 29)
        let start = autumn.start(in: Self.berlin), end = autumn.adding(days: 1).start(in: Self.berlin)
        #expect(end.timeIntervalSince(start) == 25 * 3600)
        #expect(FHIRDateTime.format(start, in: Self.berlin) == "2020-10-25T00:00:00+02:00")
        #expect(FHIRDateTime.format(end, in: Self.berlin) == "2020-10-26T00:00:00+01:00")
        let springEnd = spring.adding(days: 1).start(in: Self.berlin)
        #expect(springEnd.timeIntervalSince(spring.start(in: Self.berlin)) == 23 * 3600)
        #expect(FHIRDateTime.format(springEnd, in: Self.berlin) == "2020-03-30T00:00:00+02:00")
        let la = TimeZone(identifier: "America/Los_Angeles")!
        #expect(FHIRDateTime.format(CalendarDay(year: 2020, month: 6, day: 18).start(in: la), in: la) == "2020-06-18T00:00:00-07:00")
        #expect(FHIRDateTime.format(Date(timeIntervalSince1970: 1_592_474_400), in: TimeZone(identifier: "Asia/Kolkata")!)
                == "2020-06-18T15:30:00+05:30")
    }

    @Test func aSearchAsksForDailyTotalsOnlyWhenItsCodeNamesThem() {
        func query(_ codes: [String]) -> ObservationQuery {
            var q = ObservationQuery(patient: "alice", count: 10)
            q.codes = codes.map { $0.split(separator: ",").compactMap { FHIRTokenParameter(String($0)) } }
            return q
        }
        for daily in [["41950-7"], ["http://loinc.org|41950-7"], ["stepCount.daily"], ["urn:caresync:daily-total|"],
                      ["41950-7", "http://loinc.org|"], ["41950-7,55423-8"]] {
            #expect(query(daily).asksForDailyTotals, "\(daily)")
        }
        for samples in [[], ["55423-8"], ["stepCount"], ["http://loinc.org|"], ["|41950-7"], ["41950-7", "55423-8"]] {
            #expect(!query(samples).asksForDailyTotals, "\(samples)")
        }
        #expect(query(["41950-7,55423-8"]).types == [.stepCount])
        #expect(query(["41950-7"]).types == [])
    }

    /// Days 1…n of June 2020 in Berlin, with `steps` steps each.
    static func days(_ n: Int) -> [DailyTotal] {
        (1...n).map { d in
            let day = CalendarDay(year: 2020, month: 6, day: d)
            return DailyTotal(patient: "bob", day: day, start: day.start(in: berlin), end: day.adding(days: 1).start(in: berlin),
                              zone: berlin, steps: Double(d * 100))
        }
    }

    @Test(arguments: [false, true]) func pagesFollowTheDayCursor(descending: Bool) {
        var seen: [CalendarDay] = []
        var cursor: CalendarDay?
        for _ in 0..<10 {
            var q = ObservationQuery(patient: "bob", count: 2)
            q.descending = descending; q.dayCursor = cursor
            var collector = DailyTotalPageCollector(query: q)
            Self.days(5).forEach { collector.offer($0) }
            #expect(collector.total == 5)
            let page = collector.page()
            seen += page.totals.map(\.day)
            guard page.hasMore else { break }
            cursor = page.totals.last?.day
        }
        let all = Self.days(5).map(\.day)
        #expect(seen == (descending ? all.reversed() : all))
    }

    @Test func datesMatchTheLocalDay() throws {
        var q = ObservationQuery(patient: "bob", count: 10)
        q.dates = [try #require(FHIRDateParameter("ge2020-06-03T00:00:00+02:00"))]
        var collector = DailyTotalPageCollector(query: q)
        Self.days(5).forEach { collector.offer($0) }
        #expect(collector.page().totals.map(\.day.day) == [3, 4, 5])
        q.dates = [try #require(FHIRDateParameter("lt2020-06-03T00:00:00+02:00"))]
        collector = DailyTotalPageCollector(query: q)
        Self.days(5).forEach { collector.offer($0) }
        #expect(collector.page().totals.map(\.day.day) == [1, 2])
    }

    @Test func theDefaultPriorityPutsWatchesThenPhonesFirst() {
        #expect(DailyTotalReader.defaultPriority(["org.b", "org.example.phone", "org.a", "com.Watch.x", "org.example.watch"])
                == ["com.Watch.x", "org.example.watch", "org.example.phone", "org.a", "org.b"])
    }

    @Test(arguments: [1, 2, 92]) func aReaderSumsEachLocalDayAsTheStatisticsDo(windowDays: Int) throws {
        let store = InMemorySyncStore(storeID: "model")
        // 2020-10-25 in Berlin is 25 hours: 22:00Z on the 24th to 23:00Z on the 25th.
        let evening = Date(timeIntervalSince1970: 1_603_576_800) // 2020-10-24T22:00:00Z, Berlin midnight
        let inputs = [Fixtures.makeInput(type: .stepCount, value: 600, start: evening.addingTimeInterval(-1800), minutes: 60),
                      Fixtures.makeInput(type: .stepCount, value: 1000, start: evening.addingTimeInterval(24.5 * 3600), minutes: 60)]
        _ = try store.upsert(inputs, patient: "bob", source: "org.example.phone", now: Fixtures.t0)
        var reader = DailyTotalReader(store: store, patient: "bob", zone: Self.berlin)
        reader.windowDays = windowDays
        let span = try #require(try reader.span(from: nil, to: nil))
        let days = try #require(reader.days(of: span, within: (nil, nil)))
        #expect(days == CalendarDay(year: 2020, month: 10, day: 24)...CalendarDay(year: 2020, month: 10, day: 26))
        var totals: [DailyTotal] = []
        try reader.totals(days, priority: []) { totals.append($0) }
        #expect(totals.map(\.day.day) == [24, 25, 26])
        #expect(totals.map(\.steps) == [300, 800, 500])
        #expect(totals[1].end.timeIntervalSince(totals[1].start) == 25 * 3600)
        #expect(totals[1].startText == "2020-10-25T00:00:00+02:00" && totals[1].endText == "2020-10-26T00:00:00+01:00")
    }
}
