import CareSyncCore
import Foundation
import Testing

/// Sample uuids are unique per patient (issue 25, item 8): a uuid another patient uses, live or deleted, is free
/// for this one, so no answer tells that it exists elsewhere and a planted uuid cannot fail another patient's batch.
@Suite struct UUIDScopeContractTests {
    let p = Contract.patient, other = "patient-2", src = Contract.device, now = Contract.t0

    @Test(arguments: ContractStores.all)
    func anotherPatientsLiveUUIDIsFree(factory: ContractStore) throws {
        let store = try factory.make()
        let id = UUID()
        let planted = try store.upsert([Contract.makeInput(uuid: id, value: 1)], patient: other, source: "org.example.other", now: now)
        #expect(planted.results.map(\.outcome) == [.inserted])
        let mine = try store.upsert([Contract.makeInput(value: 5), Contract.makeInput(uuid: id, value: 2)], patient: p, source: src, now: now + 1)
        #expect(mine.results.map(\.outcome) == [.inserted, .inserted])
        #expect(mine.results[1].uuid == id)
        // A retry is a retry within the patient; each patient reads only its own sample under the uuid.
        let retry = try store.upsert([Contract.makeInput(uuid: id, value: 2)], patient: p, source: src, now: now + 2)
        #expect(retry.results.map(\.outcome) == [.ignored(.duplicateUUID)])
        #expect(try Contract.readAll(store).samples.first { $0.uuid == id }?.value == 2)
        #expect(try Contract.readAll(store, patient: other).samples.map(\.value) == [1])

        // Deleting by uuid touches only the caller's patient.
        let deleted = try store.delete(uuids: [id], syncIdentifiers: [], patient: p, source: src, now: now + 3)
        #expect(deleted.results.map(\.outcome) == [.deleted])
        #expect(try Contract.readAll(store, patient: other).samples.map(\.uuid) == [id])
        #expect(try Contract.readAll(store).deletedUUIDs == [id])
    }

    @Test(arguments: ContractStores.all)
    func anotherPatientsDeletedUUIDIsFree(factory: ContractStore) throws {
        let store = try factory.make()
        let id = UUID()
        _ = try store.upsert([Contract.makeInput(uuid: id, value: 1)], patient: other, source: src, now: now)
        _ = try store.delete(uuids: [id], syncIdentifiers: [], patient: other, source: src, now: now + 1)
        let mine = try store.upsert([Contract.makeInput(uuid: id, value: 2)], patient: p, source: src, now: now + 2)
        #expect(mine.results.map(\.outcome) == [.inserted])
        // Within the patient the deleted uuid still conflicts.
        _ = try store.delete(uuids: [id], syncIdentifiers: [], patient: p, source: src, now: now + 3)
        Contract.expectError(.conflict("")) { try store.upsert([Contract.makeInput(uuid: id, value: 2)], patient: p, source: src, now: now + 4) }
    }

    @Test(arguments: ContractStores.all)
    func anotherPatientsUUIDIsNotFoundForDelete(factory: ContractStore) throws {
        let store = try factory.make()
        let elsewhere = try store.upsert([Contract.makeInput(value: 1)], patient: other, source: src, now: now)
        let theirs = try store.upsert([Contract.makeInput(type: .heartRate, value: 60)], patient: p, source: "org.example.watch", now: now + 1)
        let result = try store.delete(uuids: [elsewhere.results[0].uuid, theirs.results[0].uuid], syncIdentifiers: [],
                                      patient: p, source: src, now: now + 2)
        #expect(result.results.map(\.outcome) == [.notFound, .notOwned])
        // A notOwned result names the type, so the API can answer notFound to a caller that may not read it.
        #expect(result.results.map(\.type) == [nil, .heartRate])
        #expect(try Contract.readAll(store, patient: other).samples.count == 1)
    }
}
