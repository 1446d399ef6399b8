import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing

/// The status's reads on every store. `sampleStarts`: after random writes from three sources, replacements by sync
/// identifier and deletions, the starts of one source (all types, some, none) at or after an instant are those the
/// whole feed shows. `newestSamples`: the latest of a type by start, ties by uuid, as the feed sorted shows.
struct StatusReadsContractTests {
    static let sources = ["org.example.phone", "org.example.watch", "org.example.therapist"]
    static let pivot = Date(timeIntervalSince1970: 1_592_474_400)

    @Test(arguments: ContractStores.all, [UInt64(1), 2])
    func startsAreTheFeedsLiveSamplesOfTheSourceFromTheInstant(store: ContractStore, seed: UInt64) throws {
        let store = try store.make()
        var random = SeededGenerator(seed: seed)
        let types: [SampleType] = [.stepCount, .heartRate, .bodyMass, .sixMinuteWalkTestDistance]
        for round in 0..<12 {
            let source = Self.sources[Int.random(in: 0..<3, using: &random)]
            let inputs = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                let start = Self.pivot.addingTimeInterval(Double(Int.random(in: -864_000...864_000, using: &random)))
                let type = types[Int.random(in: 0..<types.count, using: &random)]
                let synced = Bool.random(using: &random)
                return SampleInput(type: type, value: type == .bodyMass ? 70 : 5, start: start,
                                   end: type == .stepCount ? start.addingTimeInterval(60) : start,
                                   syncIdentifier: synced ? "k\(Int.random(in: 0..<8, using: &random))" : nil,
                                   syncVersion: synced ? Int64(round) : nil)
            }
            _ = try store.upsert(inputs, patient: Contract.patient, source: source, now: Self.pivot)
            let live = try Self.live(store)
            let doomed = live.filter { $0.source == source && Int.random(in: 0..<5, using: &random) == 0 }.map(\.uuid)
            _ = try store.delete(uuids: doomed, syncIdentifiers: [], patient: Contract.patient, source: source, now: Self.pivot)
        }
        let live = try Self.live(store)
        #expect(live.count > 20)
        for source in Self.sources {
            for chosen in [nil, Set([SampleType.stepCount]), Set([.heartRate, .bodyMass]), Set<SampleType>()] as [Set<SampleType>?] {
                for from in [Self.pivot, Self.pivot.addingTimeInterval(-2 * 86_400), Self.pivot.addingTimeInterval(30)] {
                    let expected = live.filter { $0.source == source && (chosen?.contains($0.type) ?? true) && $0.start >= from }.map(\.start)
                    let starts = try store.sampleStarts(patient: Contract.patient, source: source, types: chosen, from: from)
                    #expect(starts.sorted() == expected.sorted(), "\(source) \(chosen.map { $0.map(\.rawValue).sorted() } ?? ["all"]) \(from)")
                }
            }
        }
        #expect(try store.sampleStarts(patient: "nobody", source: Self.sources[0], types: nil, from: .distantPast).isEmpty)
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
