import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing

/// The status's reads on every store. `sampleDays`: after random writes from three sources (steps across midnights),
/// replacements by sync identifier and deletions, the starts per local day, source and type are those the whole feed
/// shows and the step sums those of the statistics engine, in the patient's zone (kept figures) and another (counted),
/// and after the patient's zone changes (counted, then rebuilt by a write). `newestSamples`: the latest of a type by start, ties by uuid, as the feed sorted shows.
struct StatusReadsContractTests {
    static let sources = ["org.example.phone", "org.example.watch", "org.example.therapist"]
    static let pivot = Date(timeIntervalSince1970: 1_592_474_400)

    @Test(arguments: ContractStores.pairs, [UInt64(1), 2])
    func sampleDaysAreTheFeedsSamplesPerLocalDay(pair: ContractStorePair, seed: UInt64) throws {
        let (store, access) = try pair.make()
        try access.createPatient(PatientRecord(id: Contract.patient, timeZone: "America/Los_Angeles", createdAt: Self.pivot))
        var random = SeededGenerator(seed: seed)
        func write(rounds: Range<Int>) throws {
            let types: [SampleType] = [.stepCount, .stepCount, .heartRate, .bodyMass, .sixMinuteWalkTestDistance]
            for round in rounds {
                let source = Self.sources[Int.random(in: 0..<3, using: &random)]
                let inputs = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                    let start = Self.pivot.addingTimeInterval(Double(Int.random(in: -864_000...864_000, using: &random)))
                    let type = types[Int.random(in: 0..<types.count, using: &random)]
                    // Steps over up to 30 hours (across midnights, some exactly to one) or at an instant.
                    let length = type == .stepCount ? [0, 60, 3_600, Int.random(in: 1...108_000, using: &random)][Int.random(in: 0..<4, using: &random)] : 0
                    let synced = Bool.random(using: &random)
                    return SampleInput(type: type, value: Double(Int.random(in: 1...900, using: &random)), start: start,
                                       end: start.addingTimeInterval(Double(length)),
                                       syncIdentifier: synced ? "k\(Int.random(in: 0..<8, using: &random))" : nil, syncVersion: synced ? Int64(round) : nil)
                }
                _ = try store.upsert(inputs, patient: Contract.patient, source: source, now: Self.pivot)
                let doomed = try Self.live(store).filter { $0.source == source && Int.random(in: 0..<5, using: &random) == 0 }.map(\.uuid)
                _ = try store.delete(uuids: doomed, syncIdentifiers: [], patient: Contract.patient, source: source, now: Self.pivot)
            }
        }
        func check(_ step: String) throws {
            let live = try Self.live(store)
            for zoneName in ["America/Los_Angeles", "Asia/Kathmandu"] {
                let zone = try #require(TimeZone(identifier: zoneName))
                let first = DeviceDays.day(of: Self.pivot.addingTimeInterval(-9 * 86_400), in: zone), last = first.adding(days: 18)
                let days = try store.sampleDays(patient: Contract.patient, zone: zone, from: first, through: last)
                let label = "\(pair) seed \(seed) \(step) \(zoneName)"
                #expect(Set(days.map { "\($0.day) \($0.source) \($0.type)" }).count == days.count, "one row per key: \(label)")
                // Starts: each live sample's own day, from Foundation's calendar.
                let starting = days.filter { $0.starts > 0 }.map { "\($0.day) \($0.source) \($0.type) \($0.starts) \($0.newestStart!)" }
                let expected = Dictionary(grouping: live.filter { (first...last).contains(DeviceDays.day(of: $0.start, in: zone)) }) {
                    "\(DeviceDays.day(of: $0.start, in: zone)) \($0.source) \($0.type)"
                }.map { "\($0.key) \($0.value.count) \($0.value.map(\.start).max()!)" }
                #expect(starting.sorted() == expected.sorted(), "\(label)")
                // Sums: the statistics engine's daily buckets per source, over the same days.
                let query = StatisticsQuery(type: .stepCount, start: first.start(in: zone), end: last.adding(days: 1).start(in: zone), interval: .day,
                                            anchorDate: first.start(in: zone), timeZone: zoneName, options: [.cumulativeSum, .separateBySource])
                var sums: [String: Double] = [:]
                for bucket in try store.statistics(patient: Contract.patient, query: query).buckets {
                    for figures in bucket.sources ?? [] { sums["\(DeviceDays.day(of: bucket.start, in: zone)) \(figures.source)"] = figures.values.sum }
                }
                let counted = days.filter { $0.type == .stepCount && $0.counted > 0 }
                #expect(Set(counted.map { "\($0.day) \($0.source)" }) == Set(sums.keys), "\(label)")
                for figures in counted {
                    let sum = try #require(sums["\(figures.day) \(figures.source)"])
                    #expect(abs(figures.sum - sum) <= 1e-9 * max(1, abs(sum)), "\(label) \(figures.day) \(figures.source): \(figures.sum) vs \(sum)")
                }
                #expect(days.allSatisfy { $0.type.isCumulative || ($0.counted == 0 && $0.sum == 0) }, "\(label)")
            }
        }
        try write(rounds: 0..<12)
        #expect(try Self.live(store).count > 20)
        try check("kept in Los Angeles")
        // A new zone: read from the samples until the next write rebuilds the figures in it.
        _ = try access.updatePatient(id: Contract.patient, timeZone: "Asia/Kathmandu", displayName: "")
        try check("zone changed")
        try write(rounds: 12..<14)
        try check("rebuilt in Kathmandu")
        #expect(try store.sampleDays(patient: "nobody", zone: TimeZone(identifier: "UTC")!, from: CalendarDay(year: 2020, month: 6, day: 1),
                                     through: CalendarDay(year: 2020, month: 6, day: 30)).isEmpty)
    }

    @Test(arguments: ContractStores.all, [UInt64(1), 2])
    func newestSamplesAreTheFeedsLatestByStartThenUUID(store: ContractStore, seed: UInt64) throws {
        let store = try store.make()
        var random = SeededGenerator(seed: seed)
        for round in 0..<6 {
            // Few distinct starts, so ties are common; other types in between.
            let inputs = (0..<8).map { n in
                let start = Self.pivot.addingTimeInterval(Double(Int.random(in: 0..<5, using: &random) * 3600))
                return SampleInput(type: n % 3 == 0 ? .heartRate : .sixMinuteWalkTestDistance, value: Double(300 + round * 10 + n),
                                   start: start, end: start)
            }
            _ = try store.upsert(inputs, patient: Contract.patient, source: Self.sources[round % 2], now: Self.pivot)
            let walks = try Self.live(store).filter { $0.type == .sixMinuteWalkTestDistance }
            let doomed = walks.filter { $0.source == Self.sources[round % 2] && Int.random(in: 0..<4, using: &random) == 0 }.map(\.uuid)
            _ = try store.delete(uuids: doomed, syncIdentifiers: [], patient: Contract.patient, source: Self.sources[round % 2], now: Self.pivot)
        }
        let expected = try Self.live(store).filter { $0.type == .sixMinuteWalkTestDistance }
            .sorted { ($0.start, $0.uuid.uuidString) > ($1.start, $1.uuid.uuidString) }
        #expect(expected.count > 10 && Set(expected.map(\.start)).count < expected.count, "ties among the starts")
        for limit in [0, 1, 2, 5, 1_000] {
            let newest = try store.newestSamples(patient: Contract.patient, type: .sixMinuteWalkTestDistance, limit: limit)
            #expect(newest == Array(expected.prefix(limit)), "limit \(limit)")
        }
        #expect(try store.newestSamples(patient: Contract.patient, type: .bodyMass, limit: 2).isEmpty)
    }

    /// A care team's reads in one call: each patient's figures in its own zone (kept, counted after a zone change, none)
    /// and its latest walks are what the patient's own call answers, each keyed by its patient.
    @Test(arguments: ContractStores.pairs)
    func aTeamsReadsAreEachPatientsOwn(pair: ContractStorePair) throws {
        let (store, access) = try pair.make()
        let zones = ["pa": "America/Los_Angeles", "pb": "Asia/Kathmandu", "pc": "Pacific/Apia"]
        for (id, zone) in zones { try access.createPatient(PatientRecord(id: id, timeZone: zone, createdAt: Self.pivot)) }
        for (n, id) in ["pa", "pb"].enumerated() {
            let inputs = (0..<40).map { i in
                let start = Self.pivot.addingTimeInterval(Double(i * 7_919 + n * 3_600))
                return SampleInput(type: i % 5 == 0 ? .sixMinuteWalkTestDistance : .stepCount, value: Double(100 * (n + 1) + i),
                                   start: start, end: start.addingTimeInterval(i % 5 == 0 ? 0 : Double(600 * (n + 1))))
            }
            _ = try store.upsert(inputs, patient: id, source: "org.example.\(id)", now: Self.pivot)
        }
        _ = try access.updatePatient(id: "pb", timeZone: "Asia/Tokyo", displayName: "")   // its figures are now counted
        let team = ["pa": TimeZone(identifier: "America/Los_Angeles")!, "pb": TimeZone(identifier: "Asia/Tokyo")!,
                    "pc": TimeZone(identifier: "Pacific/Apia")!, "nobody": TimeZone(identifier: "UTC")!]
        let first = DeviceDays.day(of: Self.pivot, in: team["pa"]!).adding(days: -2), last = first.adding(days: 10)
        let together = try store.sampleDays(patients: team, from: first, through: last)
        #expect(Set(together.keys) == Set(team.keys), "\(pair)")
        func key(_ d: SampleDay) -> String { "\(d.day) \(d.source) \(d.type) \(d.starts) \(d.counted) \(d.sum)" }
        for (id, zone) in team {
            let alone = try store.sampleDays(patient: id, zone: zone, from: first, through: last)
            #expect(together[id]?.map(key).sorted() == alone.map(key).sorted(), "\(pair) \(id)")
            #expect(alone.allSatisfy { $0.source == "org.example.\(id)" }, "\(pair) \(id)")
            #expect(alone.isEmpty == (id == "pc" || id == "nobody"), "\(pair) \(id)")
        }
        let walks = try store.newestSamples(patients: ["pb", "pa", "pc"], type: .sixMinuteWalkTestDistance, limit: 2)
        #expect(Set(walks.keys) == ["pa", "pb", "pc"], "\(pair)")
        for id in ["pa", "pb", "pc"] {
            let alone = try store.newestSamples(patient: id, type: .sixMinuteWalkTestDistance, limit: 2)
            #expect(walks[id] == alone && alone.count == (id == "pc" ? 0 : 2), "\(pair) \(id)")
        }
    }

    /// Every live sample of the patient, from the feed.
    static func live(_ store: any SyncStore) throws -> [Sample] {
        var samples: [Sample] = []
        var query = ChangeQuery(patient: Contract.patient, limit: 1_000)
        while true {
            let page = try store.changes(query)
            samples += page.samples
            query.anchor = page.anchor
            if !page.hasMore { return samples }
        }
    }
}
