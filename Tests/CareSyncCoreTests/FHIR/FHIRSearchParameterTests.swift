import Foundation
import Testing
@testable import CareSyncCore

/// FHIR search values: date prefixes and precision, tokens, and paging in bounded memory.
@Suite struct FHIRSearchParameterTests {
    static let day = Int64(1_592_438_400_000) // 2020-06-18T00:00:00Z

    @Test func precisionSetsTheRange() throws {
        let d = try #require(FHIRDateParameter("2020-06-18"))
        #expect(d.prefix == .eq && d.lower == Self.day && d.upper == Self.day + 86_400_000)
        #expect(FHIRDateParameter("2020")?.upper == Int64(1_609_459_200_000))
        #expect(FHIRDateParameter("ge2020-06")?.lower == Int64(1_590_969_600_000))
        #expect(FHIRDateParameter("2020-12")?.upper == Int64(1_609_459_200_000))
        #expect(FHIRDateParameter("lt2020-06-18T02:00:00+02:00")?.lower == Self.day)
        #expect(FHIRDateParameter("2020-06-18T00:00Z")?.upper == Self.day + 60_000)
        #expect(FHIRDateParameter("2020-06-18T00:00:00.000Z")?.upper == Self.day + 1)
    }

    @Test(arguments: ["", "xx2020", "2020-13", "2020-06-31", "2020-06-18T10:00:00", "2020/06/18", "ge", "2020-6-1"])
    func malformedDatesAreRefused(text: String) {
        #expect(FHIRDateParameter(text) == nil)
    }

    @Test func prefixesCompareTheSampleWithTheRange() throws {
        let hour = Int64(3_600_000), inside = (Self.day + hour, Self.day + 2 * hour)
        let before = (Self.day - hour, Self.day - hour), after = (Self.day + 25 * hour, Self.day + 25 * hour)
        let straddling = (Self.day - hour, Self.day + hour)
        func match(_ p: String, _ s: (Int64, Int64)) throws -> Bool { try #require(FHIRDateParameter(p + "2020-06-18")).matches(start: s.0, end: s.1) }
        #expect(try match("eq", inside) && !match("eq", before) && !match("eq", straddling))
        #expect(try !match("ne", inside) && match("ne", after))
        #expect(try match("lt", before) && match("lt", straddling) && !match("lt", inside))
        #expect(try match("gt", after) && !match("gt", inside) && !match("gt", before))
        #expect(try match("ge", inside) && match("ge", after) && !match("ge", before))
        #expect(try match("le", inside) && match("le", before) && !match("le", after))
    }

    @Test func tokensMatchSystemAndCode() throws {
        #expect(try #require(FHIRTokenParameter("http://loinc.org|8867-4")).types == [.heartRate])
        #expect(try #require(FHIRTokenParameter("8867-4")).types == [.heartRate])
        #expect(try #require(FHIRTokenParameter("urn:caresync:sample-type|stepCount")).types == [.stepCount])
        #expect(try #require(FHIRTokenParameter("|8867-4")).types.isEmpty)
        #expect(try #require(FHIRTokenParameter("http://loinc.org|")).types.contains(.bodyMass))
        #expect(try #require(FHIRTokenParameter("http://loinc.org|8480-6")).types == [.bloodPressureSystolic])
        #expect(FHIRTokenParameter("") == nil && FHIRTokenParameter("|") == nil)
    }

    @Test func codeParametersAreAndOfOrs() throws {
        var q = ObservationQuery(patient: "alice", count: 10)
        q.codes = [[try #require(FHIRTokenParameter("8867-4")), try #require(FHIRTokenParameter("55423-8"))]]
        #expect(q.types == [.heartRate, .stepCount])
        q.codes.append([try #require(FHIRTokenParameter("55423-8"))])
        #expect(q.types == [.stepCount])
    }

    @Test(arguments: [false, true]) func pagesFollowTheCursorAndVisitEveryMatchOnce(descending: Bool) throws {
        let samples: [Sample] = (0..<37).map { (i: Int) -> Sample in
            let at = Date(timeIntervalSince1970: 1_592_474_400 + Double(i % 9) * 60)
            return Sample(uuid: UUID(), type: .heartRate, value: 60, start: at, end: at, syncIdentifier: nil, syncVersion: nil, source: "s")
        }
        var query = ObservationQuery(patient: "alice", count: 5)
        query.descending = descending
        var seen: [Sample] = []
        while true {
            var collector = ObservationPageCollector(query: query)
            for s in samples.shuffled() { collector.offer(s) }
            #expect(collector.total == 37)
            let page = collector.page()
            seen += page.samples
            guard page.hasMore, let last = page.samples.last else { break }
            query.cursor = ObservationCursor(text: ObservationCursor(last).text)
        }
        #expect(seen.count == 37 && Set(seen.map(\.uuid)).count == 37)
        let keys = seen.map(ObservationCursor.init)
        #expect(keys == (descending ? Array(keys.sorted().reversed()) : keys.sorted()))
    }
}
