import CareSyncCore
import Foundation
import Testing

/// The anchored change feed and tombstone retention of api.md, on every store.
@Suite struct FeedContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0

    @Test(arguments: ContractStores.all)
    func pagingYieldsEveryChangeOnceInCommitOrder(factory: ContractStore) throws {
        let store = try factory.make()
        var expected: [Double] = []
        for batch in 0..<7 {
            let inputs = (0..<3).map { Contract.makeInput(value: Double(batch * 3 + $0), start: now + Double(batch * 3 + $0)) }
            _ = try store.upsert(inputs, patient: p, source: src, now: now)
            expected += inputs.map(\.value)
        }
        for limit in [1, 2, 5, 21, 500] {
            let read = try Contract.readAll(store, limit: limit)
            #expect(read.samples.map(\.value) == expected, "limit \(limit)")
            #expect(read.pages == (limit == 21 || limit == 500 ? 1 : (21 + limit - 1) / limit), "limit \(limit)")
        }
        let head = try store.currentAnchor()
        let empty = try store.changes(ChangeQuery(patient: p, anchor: head))
        #expect(empty.samples.isEmpty && empty.deletedObjects.isEmpty && !empty.hasMore && empty.anchor == head)
    }

    /// A page mixing more sources, types and metadata than a reader could remember, with texts of equal length
    /// that differ in one byte, reads back every sample's own fields.
    @Test(arguments: ContractStores.all)
    func aMixedPageReadsBackEverySamplesOwnFields(factory: ContractStore) throws {
        let store = try factory.make()
        let types: [SampleType] = [.stepCount, .heartRate, .bodyMass]
        var written: [UUID: (type: SampleType, source: String, metadata: [String: MetadataValue])] = [:]
        for n in 0..<60 {
            let type = types[n % 3], source = "org.example.dev\(n % 6)"
            let metadata: [String: MetadataValue] = n % 7 == 6 ? [:] : ["k": .string("a\(n % 7)"), "wasUserEntered": .bool(n % 2 == 0)]
            let input = Contract.makeInput(type: type, value: Double(60 + n), start: now + Double(n) * Contract.hour, metadata: metadata)
            let result = try store.upsert([input], patient: p, source: source, now: now)
            written[result.results[0].uuid] = (type, source, metadata)
        }
        let read = try Contract.readAll(store, limit: 60)
        #expect(read.samples.count == 60)
        for sample in read.samples {
            let expected = try #require(written[sample.uuid])
            #expect(sample.type == expected.type && sample.source == expected.source && sample.metadata == expected.metadata,
                    "\(sample)")
        }
    }

    @Test(arguments: ContractStores.all)
    func addedAndDeletedAfterTheAnchorShowsOnlyAsDeleted(factory: ContractStore) throws {
        let store = try factory.make()
        let kept = try store.upsert([Contract.makeInput(value: 1)], patient: p, source: src, now: now)
        let gone = try store.upsert([Contract.makeInput(value: 2)], patient: p, source: src, now: now)
        _ = try store.delete(uuids: [gone.results[0].uuid], syncIdentifiers: [], patient: p, source: src, now: now + 1)
        let read = try Contract.readAll(store, from: kept.anchor)
        #expect(read.samples.isEmpty)
        #expect(read.deletedUUIDs == [gone.results[0].uuid])
        let all = try Contract.readAll(store, limit: 1)
        #expect(all.sampleUUIDs == [kept.results[0].uuid] && all.deletedUUIDs == [gone.results[0].uuid])
    }

    @Test(arguments: ContractStores.all)
    func filtersApplyToSamplesAndDeletedObjects(factory: ContractStore) throws {
        let store = try factory.make()
        let steps = try store.upsert([Contract.makeInput(type: .stepCount, value: 1, start: now)], patient: p, source: src, now: now)
        _ = try store.upsert([Contract.makeInput(type: .heartRate, value: 60, start: now + Contract.hour, minutes: 0)],
                             patient: p, source: "org.example.watch", now: now)
        _ = try store.upsert([Contract.makeInput(type: .stepCount, value: 2, start: now + 2 * Contract.hour)],
                             patient: p, source: "org.example.watch", now: now)
        _ = try store.delete(uuids: [steps.results[0].uuid], syncIdentifiers: [], patient: p, source: src, now: now)
        let stepsOnly = try Contract.readAll(store, types: [.stepCount], source: nil)
        #expect(stepsOnly.samples.map(\.value) == [2] && stepsOnly.deletedObjects.count == 1)
        let watch = try Contract.readAll(store, source: "org.example.watch")
        #expect(Set(watch.samples.map(\.value)) == [60, 2] && watch.deletedObjects.isEmpty)
        func range(_ from: TimeInterval?, _ to: TimeInterval?) throws -> Set<Double> {
            let page = try store.changes(ChangeQuery(patient: p, from: from.map { now + $0 }, to: to.map { now + $0 }))
            return Set(page.samples.map(\.value))
        }
        #expect(try range(Contract.hour, 2 * Contract.hour) == [60])       // the instant sample at `from` is in
        #expect(try range(Contract.hour + 1, nil) == [2])
        #expect(try range(nil, 2 * Contract.hour) == [60])                 // `to` is exclusive
        #expect(try range(2 * Contract.hour + 599, nil) == [2])             // overlap counts
        #expect(try range(2 * Contract.hour + 600, nil) == [])              // ending at `from` does not
    }

    @Test(arguments: ContractStores.all)
    func badAnchorsAreInvalid(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try store.upsert([Contract.makeInput()], patient: p, source: src, now: now)
        let head = try store.currentAnchor()
        Contract.expectError(.invalidAnchor) { try store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: "another", sequence: 0))) }
        Contract.expectError(.invalidAnchor) { try store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: store.storeID, sequence: head.sequence + 1))) }
        Contract.expectError(.invalidAnchor) { try store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: store.storeID, sequence: -1))) }
        let other = try ContractStores.all[0].make()
        Contract.expectError(.invalidAnchor) { try Anchor(encoded: head.encoded, expectedStoreID: other.storeID) }
        #expect(try Anchor(encoded: head.encoded, expectedStoreID: store.storeID) == head)
        #expect(store.storeID != other.storeID)
    }

    @Test(arguments: ContractStores.all)
    func purgedTombstonesExpireOlderAnchors(factory: ContractStore) throws {
        let store = try factory.make()
        let a = try store.upsert([Contract.makeInput(value: 1), Contract.makeInput(value: 2)], patient: p, source: src, now: now)
        let old = try store.delete(uuids: [a.results[0].uuid], syncIdentifiers: [], patient: p, source: src, now: now + Contract.day)
        let recent = try store.delete(uuids: [a.results[1].uuid], syncIdentifiers: [], patient: p, source: src, now: now + 30 * Contract.day)
        #expect(try store.purgeTombstones(before: now + 10 * Contract.day) == 1)
        Contract.expectError(.anchorExpired) { try store.changes(ChangeQuery(patient: p, anchor: a.anchor)) }
        let fromOld = try Contract.readAll(store, from: old.anchor)
        #expect(fromOld.deletedUUIDs == [a.results[1].uuid])
        let fresh = try Contract.readAll(store)
        #expect(fresh.samples.isEmpty && fresh.deletedUUIDs == [a.results[1].uuid])
        #expect(try store.purgeTombstones(before: now + 10 * Contract.day) == 0)
        #expect(try store.purgeTombstones(before: now + 31 * Contract.day) == 1)
        Contract.expectError(.anchorExpired) { try store.changes(ChangeQuery(patient: p, anchor: old.anchor)) }
        #expect(try Contract.readAll(store, from: recent.anchor).deletedObjects.isEmpty)
        #expect(try Contract.readAll(store).deletedObjects.isEmpty)
    }

    @Test(arguments: ContractStores.all)
    func aReaderStartingAfterAPurgePagesThroughWithoutExpiring(factory: ContractStore) throws {
        let store = try factory.make()
        let up = try store.upsert([Contract.makeInput(value: 1), Contract.makeInput(value: 2), Contract.makeInput(value: 3)],
                                  patient: p, source: src, now: now)
        _ = try store.delete(uuids: [up.results[1].uuid], syncIdentifiers: [], patient: p, source: src, now: now)
        let beforePurge = try store.upsert([Contract.makeInput(value: 4)], patient: p, source: src, now: now + Contract.day)
        #expect(try store.purgeTombstones(before: now + 1) == 1)
        // Live samples sit below the horizon; a reader starting over must still get through them one by one.
        let fresh = try Contract.readAll(store, limit: 1)
        #expect(fresh.samples.map(\.value) == [1, 3, 4] && fresh.deletedObjects.isEmpty && fresh.pages == 3)
        // An anchor handed out before the purge and below its horizon is expired; one at the head is not.
        Contract.expectError(.anchorExpired) { try store.changes(ChangeQuery(patient: p, anchor: up.anchor)) }
        #expect(try store.changes(ChangeQuery(patient: p, anchor: beforePurge.anchor)).samples.isEmpty)
        // A horizon the store never had is not an anchor of this store.
        var forged = fresh.anchor
        forged.horizon += 100
        Contract.expectError(.invalidAnchor) { try store.changes(ChangeQuery(patient: p, anchor: forged)) }
    }
}
