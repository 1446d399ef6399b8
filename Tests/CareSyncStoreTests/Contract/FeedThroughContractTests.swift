import CareSyncCore
import Foundation
import Testing

/// `ChangeQuery.through`: a feed read up to a captured head, as a bulk export reads every patient to one position.
@Suite struct FeedThroughContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0

    /// Changes committed after the captured head stay out of the read, in small pages and large, and its last anchor is
    /// the captured head: reading on from it yields exactly the later changes, the deletion of an earlier sample included.
    @Test(arguments: ContractStores.all)
    func aReadThroughAHeadStopsThereAndTheNextReadTakesTheRest(factory: ContractStore) throws {
        let store = try factory.make()
        let early = try store.upsert((0..<5).map { Contract.makeInput(value: Double($0), start: now + Double($0)) },
                                     patient: p, source: src, now: now)
        let head = try store.currentAnchor()
        _ = try store.upsert((5..<8).map { Contract.makeInput(value: Double($0), start: now + Double($0)) }, patient: p, source: src, now: now)
        _ = try store.delete(uuids: [early.results[1].uuid], syncIdentifiers: [], patient: p, source: src, now: now + 1)
        for limit in [1, 2, 500] {
            var query = ChangeQuery(patient: p, limit: limit, through: head.sequence)
            var values: [Double] = [], deleted: [UUID] = []
            var page: ChangeSet
            repeat {
                page = try store.changes(query)
                values += page.samples.map(\.value)
                deleted += page.deletedObjects.map(\.uuid)
                query.anchor = page.anchor
            } while page.hasMore
            // Sample 1 moved past the head when it was deleted: the read up to the head no longer holds it.
            #expect(values == [0, 2, 3, 4] && deleted.isEmpty, "limit \(limit)")
            #expect(page.anchor.sequence == head.sequence, "limit \(limit)")
            let rest = try Contract.readAll(store, from: page.anchor, limit: limit)
            #expect(rest.samples.map(\.value) == [5, 6, 7] && rest.deletedUUIDs == [early.results[1].uuid], "limit \(limit)")
        }
    }

    /// An anchor already past `through` reads nothing and keeps its position: the anchor never goes back.
    @Test(arguments: ContractStores.all)
    func anAnchorPastThroughReadsNothingAndKeepsItsPosition(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try store.upsert([Contract.makeInput(value: 1)], patient: p, source: src, now: now)
        let first = try store.currentAnchor()
        _ = try store.upsert([Contract.makeInput(value: 2, start: now + 60)], patient: p, source: src, now: now)
        let later = try store.currentAnchor()
        let page = try store.changes(ChangeQuery(patient: p, anchor: later, through: first.sequence))
        #expect(page.samples.isEmpty && page.deletedObjects.isEmpty && !page.hasMore)
        #expect(page.anchor.sequence == later.sequence)
    }
}
