import CareSyncCore
import Foundation
import Testing

/// Write times (`WriteTimes`): one commit time per write that advances the change log, at the latest `now` of its
/// writes and never before the commit before it; the samples' times on request, an instant as a position, and pruning.
@Suite struct WriteTimeContractTests {
    let p = Contract.patient, src = Contract.device, t0 = Contract.t0

    /// The live samples' write times by value, read with `writeTimes`.
    func times(_ store: any SyncStore) throws -> [Double: Date] {
        let page = try store.changes(ChangeQuery(patient: p, writeTimes: true))
        var times: [Double: Date] = [:]
        for sample in page.samples { times[sample.value] = page.writeTimes[sample.uuid] }
        return times
    }

    /// Commit A at t1, B at t2, a deletion at t3: the samples carry their commit's time, and an instant splits the log
    /// at the highest position committed before it (a commit exactly at the instant is at or after it).
    @Test(arguments: ContractStores.all)
    func samplesCarryTheirCommitsTimeAndAnInstantSplitsTheLog(factory: ContractStore) throws {
        let store = try factory.make()
        let (t1, t2, t3) = (t0 + 10, t0 + 20, t0 + 30)
        let a = try store.upsert([Contract.makeInput(value: 1), Contract.makeInput(value: 2, start: t0 + 60)], patient: p, source: src, now: t1)
        _ = try store.upsert([Contract.makeInput(value: 3, start: t0 + 120)], patient: p, source: src, now: t2)
        let afterB = try store.currentAnchor().sequence
        _ = try store.delete(uuids: [a.results[0].uuid], syncIdentifiers: [], patient: p, source: src, now: t3)
        let head = try store.currentAnchor().sequence
        #expect(try times(store) == [2: t1, 3: t2])
        #expect(try store.changes(ChangeQuery(patient: p)).writeTimes.isEmpty, "only on request")
        #expect(try store.position(committedBefore: t1) == 0)
        #expect(try store.position(committedBefore: t1 + 0.0005) == a.anchor.sequence, "a sub-millisecond instant")
        #expect(try store.position(committedBefore: t0 + 15) == a.anchor.sequence)
        #expect(try store.position(committedBefore: t0 + 25) == afterB)
        #expect(try store.position(committedBefore: t0 + 3600) == head)
        #expect(try store.writeTime(of: 0) == nil)
        #expect(try store.writeTime(of: 1) == t1)
        #expect(try store.writeTime(of: afterB) == t2)
        #expect(try store.writeTime(of: head) == t3)
        #expect(try store.writeTime(of: head + 1) == nil)
        // Reading on from the position before t2 gives B and the deletion only.
        let rest = try Contract.readAll(store, from: Anchor(storeID: store.storeID, sequence: try store.position(committedBefore: t0 + 15)))
        #expect(rest.samples.map(\.value) == [3] && rest.deletedUUIDs == [a.results[0].uuid])
    }

    /// A transaction records the latest `now` of its writes; a commit given an earlier `now` than the last commit takes
    /// the last commit's time; a write that changes nothing records no time.
    @Test(arguments: ContractStores.all)
    func timesNeverGoBackAndOnlyChangesRecordOne(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try store.write { w in
            _ = try w.upsert([Contract.makeInput(value: 1, syncIdentifier: "s", syncVersion: 1)], patient: p, source: src, now: t0 + 20)
            _ = try w.upsert([Contract.makeInput(value: 2, start: t0 + 60)], patient: p, source: src, now: t0 + 5)
        }
        _ = try store.upsert([Contract.makeInput(value: 3, start: t0 + 120)], patient: p, source: src, now: t0 + 10)
        #expect(try times(store) == [1: t0 + 20, 2: t0 + 20, 3: t0 + 20])
        // Ignored (same version): no commit, so the next write's earlier time stands.
        _ = try store.upsert([Contract.makeInput(value: 9, syncIdentifier: "s", syncVersion: 1)], patient: p, source: src, now: t0 + 50)
        _ = try store.upsert([Contract.makeInput(value: 4, start: t0 + 180)], patient: p, source: src, now: t0 + 40)
        #expect(try times(store)[4] == t0 + 40)
    }

    /// A purge forgets the commit times of purged changes: an instant before the purged deletion maps below the horizon
    /// (expired as an old anchor), one after it to the horizon, while the live samples written before keep their times.
    @Test(arguments: ContractStores.all)
    func aPurgeKeepsTheTimesOfLiveSamplesAndExpiresOlderInstants(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try store.upsert([Contract.makeInput(value: 1)], patient: p, source: src, now: t0 + 1)
        let gone = try store.upsert([Contract.makeInput(value: 2, start: t0 + 60)], patient: p, source: src, now: t0 + 2)
        _ = try store.delete(uuids: [gone.results[0].uuid], syncIdentifiers: [], patient: p, source: src, now: t0 + 3)
        _ = try store.upsert([Contract.makeInput(value: 4, start: t0 + 120)], patient: p, source: src, now: t0 + 4)
        #expect(try store.purgeTombstones(before: t0 + 3.5) == 1)
        #expect(try times(store) == [1: t0 + 1, 4: t0 + 4])
        let before = try store.position(committedBefore: t0 + 2.5)
        Contract.expectError(.anchorExpired) { try store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: store.storeID, sequence: before))) }
        // Just after the purged deletion: the horizon itself, a valid position.
        let recent = try store.position(committedBefore: t0 + 3.5)
        #expect(try store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: store.storeID, sequence: recent))).samples.map(\.value) == [4])
    }
}
