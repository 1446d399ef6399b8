import CareSyncReferenceModel
import Foundation
import Testing
@testable import CareSyncCore

/// The reference model alone: its lock (the contract suite checks its rules).
@Suite struct InMemorySyncStoreTests {
    @Test func concurrentWritersAndReadersSeeEveryChangeOnce() throws {
        let store = InMemorySyncStore(storeID: "model")
        let writers = 4, batches = 50
        DispatchQueue.concurrentPerform(iterations: writers + 2) { worker in
            if worker < writers {
                for batch in 0..<batches {
                    let input = Fixtures.makeInput(type: .stepCount, value: Double(batch), syncIdentifier: "w\(worker)-\(batch % 10)",
                                                   syncVersion: Int64(batch))
                    do { _ = try store.upsert([input], patient: "p", source: "s\(worker)", now: Fixtures.t0) } catch {
                        Issue.record("upsert failed: \(error)")
                    }
                }
            } else {
                for _ in 0..<100 {
                    do { _ = try store.changes(ChangeQuery(patient: "p", limit: 7)) } catch { Issue.record("read failed: \(error)") }
                }
            }
        }
        // Each (worker, identifier) ends at its highest version; every earlier one is a tombstone.
        var anchor: Anchor?
        var samples: [Sample] = [], deleted: [DeletedObject] = []
        repeat {
            let page = try store.changes(ChangeQuery(patient: "p", anchor: anchor, limit: 13))
            samples += page.samples; deleted += page.deletedObjects
            anchor = page.anchor
            if !page.hasMore { break }
        } while true
        #expect(samples.count == writers * 10)
        #expect(deleted.count == writers * (batches - 10))
        #expect(Set(samples.map(\.value)) == Set((batches - 10..<batches).map(Double.init)))
        #expect(anchor?.sequence == Int64(writers * (batches + batches - 10)))
    }
}
