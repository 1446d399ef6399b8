import CareSyncCore
import Foundation
import Testing

/// One example for every rule of api.md "Samples", on every store.
@Suite struct SampleRulesContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0

    func upsert(_ store: any SyncStore, _ inputs: [SampleInput], source: String? = nil, patient: String? = nil,
                at offset: TimeInterval = 0) throws -> UpsertBatchResult {
        try store.upsert(inputs, patient: patient ?? p, source: source ?? src, now: now + offset)
    }

    @Test(arguments: ContractStores.all)
    func newKeyIsInsertedLowerStoredVersionIsReplaced(factory: ContractStore) throws {
        let store = try factory.make()
        let v1 = try upsert(store, [Contract.makeInput(value: 10, syncIdentifier: "s", syncVersion: 1)])
        #expect(v1.results.map(\.outcome) == [.inserted])
        let v2 = try upsert(store, [Contract.makeInput(value: 20, syncIdentifier: "s", syncVersion: 2)], at: 5)
        #expect(v2.results.map(\.outcome) == [.replaced])
        #expect(v2.results[0].uuid != v1.results[0].uuid)
        let read = try Contract.readAll(store, from: v1.anchor)
        #expect(read.samples.map(\.uuid) == [v2.results[0].uuid] && read.samples.first?.value == 20)
        let tomb = try #require(read.deletedObjects.first)
        #expect(read.deletedObjects.count == 1)
        #expect(tomb == DeletedObject(uuid: v1.results[0].uuid, type: .stepCount, syncIdentifier: "s", syncVersion: 1,
                                      source: src, start: Contract.t0, end: Contract.t0 + 600, deletedAt: now + 5))
    }

    @Test(arguments: ContractStores.all)
    func equalOrHigherStoredVersionIsIgnored(factory: ContractStore) throws {
        let store = try factory.make()
        let stored = try upsert(store, [Contract.makeInput(value: 10, syncIdentifier: "s", syncVersion: 5)])
        let result = try upsert(store, [Contract.makeInput(value: 11, syncIdentifier: "s", syncVersion: 5),
                                        Contract.makeInput(value: 12, syncIdentifier: "s", syncVersion: 4)])
        #expect(result.results.map(\.outcome) == [.ignored(.sameVersion), .ignored(.olderVersion)])
        #expect(result.results.map(\.uuid) == [stored.results[0].uuid, stored.results[0].uuid])
        #expect(result.anchor == stored.anchor)
        let read = try Contract.readAll(store)
        #expect(read.samples.map(\.value) == [10] && read.deletedObjects.isEmpty)
    }

    @Test(arguments: ContractStores.all)
    func sameIdentifierTwiceInOneBatchIsHandledInOrder(factory: ContractStore) throws {
        let store = try factory.make()
        let up = try upsert(store, [Contract.makeInput(value: 1, syncIdentifier: "a", syncVersion: 1),
                                    Contract.makeInput(value: 2, syncIdentifier: "a", syncVersion: 2),
                                    Contract.makeInput(value: 3, syncIdentifier: "b", syncVersion: 2),
                                    Contract.makeInput(value: 4, syncIdentifier: "b", syncVersion: 1)])
        #expect(up.results.map(\.outcome) == [.inserted, .replaced, .inserted, .ignored(.olderVersion)])
        #expect(up.results.map(\.index) == [0, 1, 2, 3])
        let read = try Contract.readAll(store)
        #expect(Set(read.samples.map(\.value)) == [2, 3])
        #expect(read.deletedUUIDs == [up.results[0].uuid])
    }

    @Test(arguments: ContractStores.all)
    func laterItemsOfABatchSeeEarlierOnes(factory: ContractStore) throws {
        let store = try factory.make()
        let stored = try upsert(store, [Contract.makeInput(value: 1, syncIdentifier: "a", syncVersion: 1)])
        let id = UUID()
        let withUUID = Contract.makeInput(uuid: id, value: 5, syncIdentifier: "b", syncVersion: 1)
        let up = try upsert(store, [Contract.makeInput(value: 2, syncIdentifier: "a", syncVersion: 2), withUUID,
                                    Contract.makeInput(value: 3, syncIdentifier: "a", syncVersion: 3), withUUID,
                                    Contract.makeInput(value: 4, syncIdentifier: "a", syncVersion: 2),
                                    Contract.makeInput(value: 6, syncIdentifier: "b", syncVersion: 1)], at: 1)
        #expect(up.results.map(\.outcome) == [.replaced, .inserted, .replaced, .ignored(.duplicateUUID), .ignored(.olderVersion),
                                              .ignored(.sameVersion)])
        #expect(up.results.map(\.uuid)[3...] == [id, up.results[2].uuid, id])
        let read = try Contract.readAll(store, from: stored.anchor)
        #expect(read.samples.map(\.value).sorted() == [3, 5])
        #expect(read.deletedUUIDs == [stored.results[0].uuid, up.results[0].uuid])
        let again = try store.delete(uuids: [id, id], syncIdentifiers: ["b", "a", "a"], patient: p, source: src, now: now + 2)
        #expect(again.results.map(\.outcome) == [.deleted, .notFound, .notFound, .deleted, .notFound])
        #expect(try Contract.readAll(store).samples.isEmpty)
    }

    @Test(arguments: ContractStores.all)
    func samplesWithoutIdentifierAreAlwaysInserted(factory: ContractStore) throws {
        let store = try factory.make()
        let sample = Contract.makeInput(value: 7)
        let up = try upsert(store, [sample, sample])
        #expect(up.results.map(\.outcome) == [.inserted, .inserted])
        #expect(up.results[0].uuid != up.results[1].uuid)
        #expect(try Contract.readAll(store).samples.count == 2)
    }

    @Test(arguments: ContractStores.all)
    func keysArePerPatientAndSource(factory: ContractStore) throws {
        let store = try factory.make()
        let input = Contract.makeInput(syncIdentifier: "k", syncVersion: 1)
        #expect(try upsert(store, [input]).results[0].outcome == .inserted)
        #expect(try upsert(store, [input], source: "org.example.watch").results[0].outcome == .inserted)
        #expect(try upsert(store, [input], patient: "patient-2").results[0].outcome == .inserted)
        #expect(try Contract.readAll(store).samples.count == 2)
        #expect(try Contract.readAll(store, patient: "patient-2").samples.count == 1)
    }

    @Test(arguments: ContractStores.all)
    func clientUUIDSameContentIgnoredOtherContentConflict(factory: ContractStore) throws {
        let store = try factory.make()
        let id = UUID()
        let input = Contract.makeInput(uuid: id, value: 30, syncIdentifier: "c", syncVersion: 1)
        let first = try upsert(store, [input])
        #expect(first.results == [UpsertItemResult(index: 0, uuid: id, outcome: .inserted)])
        let retry = try upsert(store, [input], at: 1)
        #expect(retry.results == [UpsertItemResult(index: 0, uuid: id, outcome: .ignored(.duplicateUUID))])
        #expect(retry.anchor == first.anchor)
        var changed = input; changed.value = 31
        // The whole batch is refused: the good sample before the conflict is not stored either.
        Contract.expectError(.conflict("")) { try upsert(store, [Contract.makeInput(value: 1), changed], at: 2) }
        var otherSource = input
        otherSource.syncIdentifier = "d"
        Contract.expectError(.conflict("")) { try upsert(store, [otherSource], source: "org.example.watch", at: 3) }
        #expect(try store.currentAnchor() == first.anchor)
        #expect(try Contract.readAll(store).samples.map(\.uuid) == [id])
    }

    @Test(arguments: ContractStores.all)
    func clientUUIDOfADeletedSampleConflicts(factory: ContractStore) throws {
        let store = try factory.make()
        let id = UUID()
        let input = Contract.makeInput(uuid: id)
        _ = try upsert(store, [input])
        _ = try store.delete(uuids: [id], syncIdentifiers: [], patient: p, source: src, now: now)
        Contract.expectError(.conflict("")) { try upsert(store, [input], at: 1) }
    }

    @Test(arguments: ContractStores.all)
    func deleteOwnSourceOnlyWithTombstones(factory: ContractStore) throws {
        let store = try factory.make()
        let mine = try upsert(store, [Contract.makeInput(value: 1), Contract.makeInput(value: 2, syncIdentifier: "x", syncVersion: 3)])
        let theirs = try upsert(store, [Contract.makeInput(value: 3)], source: "org.example.watch")
        let elsewhere = try upsert(store, [Contract.makeInput(value: 4)], patient: "patient-2")
        let unknown = UUID()
        let result = try store.delete(uuids: [mine.results[0].uuid, theirs.results[0].uuid, unknown, elsewhere.results[0].uuid,
                                              mine.results[0].uuid],
                                      syncIdentifiers: ["x", "x", "nope"], patient: p, source: src, now: now + 9)
        #expect(result.results.map(\.outcome) == [.deleted, .notOwned, .notFound, .notFound, .notFound, .deleted, .notFound, .notFound])
        #expect(result.results[5].uuid == mine.results[1].uuid && result.results[5].syncIdentifier == "x")
        let read = try Contract.readAll(store, from: theirs.anchor)
        #expect(read.samples.isEmpty)
        #expect(read.deletedUUIDs == [mine.results[0].uuid, mine.results[1].uuid])
        let tomb = try #require(read.deletedObjects.first { $0.syncIdentifier == "x" })
        #expect(tomb == DeletedObject(uuid: mine.results[1].uuid, type: .stepCount, syncIdentifier: "x", syncVersion: 3,
                                      source: src, start: Contract.t0, end: Contract.t0 + 600, deletedAt: now + 9))
        #expect(try Contract.readAll(store).samples.map(\.value) == [3])
        #expect(try Contract.readAll(store, patient: "patient-2").samples.count == 1)
    }

    @Test(arguments: ContractStores.all)
    func aDeletedKeyIsFreeAgain(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try upsert(store, [Contract.makeInput(syncIdentifier: "z", syncVersion: 4)])
        _ = try store.delete(uuids: [], syncIdentifiers: ["z"], patient: p, source: src, now: now)
        #expect(try upsert(store, [Contract.makeInput(syncIdentifier: "z", syncVersion: 1)], at: 1).results[0].outcome == .inserted)
    }

    @Test(arguments: ContractStores.all)
    func valuesAreStoredInTheCanonicalUnitAndAnInvalidBatchStoresNothing(factory: ContractStore) throws {
        let store = try factory.make()
        let good = SampleDraft(type: "distanceWalkingRunning", value: 1.5, unit: "km",
                               start: "2020-06-18T10:00:00+02:00", end: "2020-06-18T10:30:00+02:00",
                               syncIdentifier: "walk", syncVersion: 1, metadata: ["wasUserEntered": .bool(true)])
        var noVersion = good; noVersion.syncVersion = nil
        var versionAlone = good; versionAlone.syncIdentifier = nil
        var stepsInKg = good; stepsInKg.type = "stepCount"; stepsInKg.unit = "kg"
        do {
            let inputs = try SampleValidator.validate([good, noVersion, versionAlone, stepsInKg])
            _ = try upsert(store, inputs)
            Issue.record("an invalid batch was accepted")
        } catch let SyncError.validationFailed(problems) {
            #expect(problems.map { "\($0.index!):\($0.field)" } == ["1:syncVersion", "2:syncVersion", "3:unit"])
        }
        #expect(try Contract.readAll(store).samples.isEmpty)
        _ = try upsert(store, try SampleValidator.validate([good]))
        let sample = try #require(try Contract.readAll(store).samples.first)
        #expect(sample.value == 1500 && sample.start == Contract.t0.addingTimeInterval(-2 * Contract.hour))
        #expect(sample.metadata == ["wasUserEntered": .bool(true)] && sample.source == src)
    }
}
