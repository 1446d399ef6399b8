import CareSyncCore
import Foundation
import Testing
@testable import CareSyncStore

@Suite struct SQLiteSyncStoreTests {
    let p = "patient-1", watch = "org.example.watch", therapist = "org.example.therapist"

    @Test func upsertOutcomesFollowVersions() throws {
        let f = try StoreFixture.make()
        let now = StoreFixture.t0
        let first = try f.store.upsert([StoreFixture.input(syncIdentifier: "a", syncVersion: 2)], patient: p, source: watch, now: now)
        #expect(first.results.map(\.outcome) == [.inserted])
        let again = try f.store.upsert([StoreFixture.input(value: 1, syncIdentifier: "a", syncVersion: 2),
                                        StoreFixture.input(value: 1, syncIdentifier: "a", syncVersion: 1)], patient: p, source: watch, now: now)
        #expect(again.results.map(\.outcome) == [.ignored(.sameVersion), .ignored(.olderVersion)])
        #expect(again.results.allSatisfy { $0.uuid == first.results[0].uuid })
        #expect(again.anchor == first.anchor)
        // The same key twice in one batch, in order: v3 replaces v2, then v4 replaces v3.
        let twice = try f.store.upsert([StoreFixture.input(value: 3, syncIdentifier: "a", syncVersion: 3),
                                        StoreFixture.input(value: 4, syncIdentifier: "a", syncVersion: 4)], patient: p, source: watch, now: now)
        #expect(twice.results.map(\.outcome) == [.replaced, .replaced])
        #expect(Set([first.results[0].uuid, twice.results[0].uuid, twice.results[1].uuid]).count == 3)
        // Another source's same identifier is another key.
        let other = try f.store.upsert([StoreFixture.input(syncIdentifier: "a", syncVersion: 1)], patient: p, source: therapist, now: now)
        #expect(other.results.map(\.outcome) == [.inserted])
        let feed = try f.readAll(patient: p)
        #expect(feed.items.compactMap { if case .sample(let s) = $0 { s.value } else { nil } } == [4, 400])
        #expect(feed.items.compactMap { if case .deleted(let d) = $0 { d.uuid } else { nil } }
                == [first.results[0].uuid, twice.results[0].uuid])
        #expect(feed.anchor.sequence == 6)  // insert, tombstone+insert twice, insert
    }

    @Test func clientUUIDRetryIsIgnoredAndOtherContentConflictsWithoutStoringAnything() throws {
        let f = try StoreFixture.make()
        let id = UUID()
        _ = try f.store.upsert([StoreFixture.input(uuid: id)], patient: p, source: watch, now: StoreFixture.t0)
        let retry = try f.store.upsert([StoreFixture.input(uuid: id)], patient: p, source: watch, now: StoreFixture.t0)
        #expect(retry.results.map(\.outcome) == [.ignored(.duplicateUUID)])
        let head = try f.store.currentAnchor()
        #expect(throws: SyncError.self) {
            try f.store.upsert([StoreFixture.input(value: 1), StoreFixture.input(uuid: id, value: 999)], patient: p, source: watch, now: StoreFixture.t0)
        }
        #expect(try f.store.currentAnchor() == head)
        #expect(try f.readAll(patient: p).items.count == 1)
    }

    @Test func deleteOwnSourceOnlyAndAddedThenDeletedShowsOnlyAsDeleted() throws {
        let f = try StoreFixture.make()
        let base = try f.store.upsert([StoreFixture.input(syncIdentifier: "x", syncVersion: 1)], patient: p, source: watch, now: StoreFixture.t0)
        let mine = try f.store.upsert([StoreFixture.input(syncIdentifier: "y", syncVersion: 1), StoreFixture.input()],
                                      patient: p, source: watch, now: StoreFixture.t0)
        let theirs = try f.store.upsert([StoreFixture.input()], patient: p, source: therapist, now: StoreFixture.t0)
        let gone = UUID()
        let deletedAt = StoreFixture.t0.addingTimeInterval(60)
        let result = try f.store.delete(uuids: [mine.results[1].uuid, theirs.results[0].uuid, gone, mine.results[1].uuid],
                                        syncIdentifiers: ["y", "nope"], patient: p, source: watch, now: deletedAt)
        #expect(result.results.map(\.outcome) == [.deleted, .notOwned, .notFound, .notFound, .deleted, .notFound])
        #expect(result.results[4].uuid == mine.results[0].uuid)
        // From the anchor after the first batch: the two added-then-deleted samples are deleted objects only.
        let page = try f.store.changes(ChangeQuery(patient: p, anchor: base.anchor))
        #expect(page.samples.map(\.uuid) == [theirs.results[0].uuid])
        #expect(page.deletedObjects.map(\.uuid) == [mine.results[1].uuid, mine.results[0].uuid])
        #expect(page.deletedObjects[1].syncIdentifier == "y")
        #expect(page.deletedObjects[1].syncVersion == 1)
        #expect(page.deletedObjects[1].source == watch)
        #expect(page.deletedObjects[1].deletedAt == deletedAt)
        #expect(page.deletedObjects[1].start == StoreFixture.t0)
        #expect(!page.hasMore)
    }

    @Test func feedPagesFiltersAndAnchorsAreChecked() throws {
        let f = try StoreFixture.make()
        let inputs = (0..<10).map { (i: Int) -> SampleInput in
            let type: SampleType = i % 2 == 0 ? .stepCount : .heartRate
            return StoreFixture.input(type: type, value: Double(i), start: StoreFixture.t0.addingTimeInterval(Double(i) * 3600),
                                      minutes: 30)
        }
        _ = try f.store.upsert(inputs, patient: p, source: watch, now: StoreFixture.t0)
        _ = try f.store.upsert([StoreFixture.input()], patient: "patient-2", source: watch, now: StoreFixture.t0)
        let all = try f.readAll(patient: p, limit: 3)
        #expect(all.items.count == 10)
        #expect(all.anchor == (try f.store.currentAnchor()))
        let page = try f.store.changes(ChangeQuery(patient: p, limit: 3))
        #expect(page.hasMore && page.anchor.sequence == 3)
        let steps = try f.store.changes(ChangeQuery(patient: p, types: [.stepCount], limit: 100))
        #expect(steps.samples.map(\.value) == [0, 2, 4, 6, 8])
        let window = try f.store.changes(ChangeQuery(patient: p, from: StoreFixture.t0.addingTimeInterval(3 * 3600 + 60),
                                                     to: StoreFixture.t0.addingTimeInterval(5 * 3600)))
        #expect(window.samples.map(\.value) == [3, 4])
        #expect(try f.store.changes(ChangeQuery(patient: p, source: therapist)).samples.isEmpty)
        let head = try f.store.currentAnchor()
        #expect(throws: SyncError.invalidAnchor) { try f.store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: "other", sequence: 1))) }
        #expect(throws: SyncError.invalidAnchor) { try f.store.changes(ChangeQuery(patient: p, anchor: Anchor(storeID: head.storeID, sequence: head.sequence + 1))) }
        let empty = try f.store.changes(ChangeQuery(patient: p, anchor: head))
        #expect(empty.samples.isEmpty && empty.deletedObjects.isEmpty && empty.anchor == head && !empty.hasMore)
    }

    @Test func purgeSetsHorizonAndOlderAnchorsExpire() throws {
        let f = try StoreFixture.make()
        let a = try f.store.upsert([StoreFixture.input(), StoreFixture.input(value: 2)], patient: p, source: watch, now: StoreFixture.t0)
        let early = try f.store.changes(ChangeQuery(patient: p, limit: 1)).anchor
        _ = try f.store.delete(uuids: [a.results[0].uuid], syncIdentifiers: [], patient: p, source: watch, now: StoreFixture.t0)
        let afterDelete = try f.store.currentAnchor()
        #expect(try f.store.purgeTombstones(before: StoreFixture.t0.addingTimeInterval(-1)) == 0)
        #expect(try f.store.changes(ChangeQuery(patient: p, anchor: early)).deletedObjects.count == 1)
        #expect(try f.store.purgeTombstones(before: StoreFixture.t0.addingTimeInterval(1)) == 1)
        #expect(throws: SyncError.anchorExpired) { try f.store.changes(ChangeQuery(patient: p, anchor: early)) }
        #expect(try f.store.changes(ChangeQuery(patient: p, anchor: afterDelete)).deletedObjects.isEmpty)
        #expect(try f.store.changes(ChangeQuery(patient: p)).samples.map(\.value) == [2])
        // Sequences are never reused after the log is pruned.
        let next = try f.store.upsert([StoreFixture.input(value: 3)], patient: p, source: watch, now: StoreFixture.t0)
        #expect(next.anchor.sequence == afterDelete.sequence + 1)
    }

    @Test func backupGetsNewIdentityAndOldAnchorsStayValidOnlyUpToItsHead() throws {
        let f = try StoreFixture.make()
        _ = try f.store.upsert([StoreFixture.input(), StoreFixture.input(value: 2)], patient: p, source: watch, now: StoreFixture.t0)
        let inside = try f.store.currentAnchor()
        let copyPath = f.directory.path("copy.sqlite")
        let (copyID, copyHead) = try f.store.backup(to: copyPath)
        _ = try f.store.upsert([StoreFixture.input(value: 3)], patient: p, source: watch, now: StoreFixture.t0)
        let beyond = try f.store.currentAnchor()
        let restored = try SQLiteSyncStore(path: copyPath, migrationsDirectory: StoreFixture.migrationsURL)
        #expect(restored.storeID == copyID && copyID != f.store.storeID)
        #expect(copyHead == inside.sequence)
        #expect(try restored.changes(ChangeQuery(patient: p, anchor: inside)).anchor.storeID == copyID)
        _ = try restored.upsert([StoreFixture.input(value: 30)], patient: p, source: watch, now: StoreFixture.t0)
        // The live store's later anchor names a sequence the copy reused for another change: refused.
        #expect(throws: SyncError.invalidAnchor) { try restored.changes(ChangeQuery(patient: p, anchor: beyond)) }
        #expect(try restored.changes(ChangeQuery(patient: p, anchor: inside)).samples.map(\.value) == [30])
    }
}

/// A database from before the checksums migration gets its running sums from its live samples when the store opens.
@Suite struct ChecksumFillTests {
    @Test func aStoreOpeningADatabaseWithoutSumsFillsThemFromItsSamples() throws {
        let fixture = try StoreFixture.make()
        let store = fixture.store
        let inputs: [SampleInput] = (0..<20).map { (i: Int) -> SampleInput in
            let type: SampleType = i % 2 == 0 ? .stepCount : .heartRate
            return Contract.makeInput(type: type, value: Double(i + 1), start: Contract.t0.addingTimeInterval(Double(i) * 60))
        }
        _ = try store.upsert(inputs, patient: "p1", source: "s", now: Date())
        let before = try store.checksums(patient: "p1", at: nil)
        #expect(before.types[.stepCount]?.count == 10 && before.types[.heartRate]?.count == 10)
        try store.database.write { db in
            try db.execute("DELETE FROM checksums")
            try db.execute("DELETE FROM store_meta WHERE key = 'checksums'")
        }
        #expect(try store.checksums(patient: "p1", at: nil).types.isEmpty, "the sums are gone, as before 0004")
        let reopened = try SQLiteSyncStore(database: store.database)
        #expect(try reopened.checksums(patient: "p1", at: nil) == before)
    }
}
