import CareSyncCore
import Foundation
import Testing

/// The webhook outbox: while a subscription exists, every commit that changed a feed records (patient, head) in the
/// same transaction, and a write that throws records nothing; with no subscription, commits record nothing.
@Suite struct OutboxContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0

    struct Fault: Error {}

    /// A fresh sync store whose database holds one subscription to every patient.
    func subscribed(_ factory: ContractWebhookStores) throws -> any SyncStore {
        let (sync, _, webhooks) = try factory.make()
        try webhooks.createSubscription(subscription("wh_all"))
        return sync
    }

    func subscription(_ id: String) -> WebhookSubscription {
        WebhookSubscription(id: id, url: "https://clinic.example/\(id)", patients: [], careTeams: [],
                            events: [WebhookSubscription.patientChanged], secret: "whsec_\(id)", createdAt: now)
    }

    @Test(arguments: ContractStores.webhooks)
    func commitsRecordNothingWhileNoSubscriptionExists(factory: ContractWebhookStores) throws {
        let (store, _, webhooks) = try factory.make()
        _ = try store.upsert([Contract.makeInput(value: 1)], patient: p, source: src, now: now)
        #expect(try store.outbox(after: 0, limit: 100).isEmpty)
        try webhooks.createSubscription(subscription("wh_1"))
        let second = try store.upsert([Contract.makeInput(value: 2)], patient: p, source: src, now: now)
        #expect(try store.outbox(after: 0, limit: 100).map(\.sequence) == [second.anchor.sequence])
        #expect(try webhooks.deleteSubscription(id: "wh_1"))
        _ = try store.upsert([Contract.makeInput(value: 3)], patient: p, source: src, now: now)
        #expect(try store.outbox(after: 0, limit: 100).map(\.sequence) == [second.anchor.sequence])
    }

    @Test(arguments: ContractStores.webhooks)
    func aCommitRecordsEachChangedPatientAtItsHead(factory: ContractWebhookStores) throws {
        let store = try subscribed(factory)
        let first = try store.upsert([Contract.makeInput(syncIdentifier: "a", syncVersion: 1)], patient: p, source: src, now: now)
        let both = try store.write { w in
            _ = try w.upsert([Contract.makeInput(value: 2)], patient: p, source: src, now: now)
            _ = try w.upsert([Contract.makeInput(value: 3)], patient: "patient-2", source: src, now: now)
            return try w.headAnchor()
        }
        // Every item ignored: the feed did not change, so no entry.
        _ = try store.upsert([Contract.makeInput(syncIdentifier: "a", syncVersion: 1)], patient: p, source: src, now: now)
        let entries = try store.outbox(after: 0, limit: 100)
        #expect(entries.count == 3)
        #expect(entries[0].patient == p && entries[0].sequence == first.anchor.sequence && entries[0].anchor == first.anchor.encoded)
        #expect(Set(entries[1...].map(\.patient)) == [p, "patient-2"])
        #expect(entries[1...].allSatisfy { $0.sequence == both.sequence && $0.anchor == both.encoded })
        #expect(entries.map(\.id) == entries.map(\.id).sorted() && Set(entries.map(\.id)).count == 3)
        #expect(try store.outbox(after: entries[1].id, limit: 100) == [entries[2]])
        #expect(try store.outbox(after: 0, limit: 1) == [entries[0]])
    }

    @Test(arguments: ContractStores.webhooks)
    func aWriteThatThrowsLeavesNoOutboxEntry(factory: ContractWebhookStores) async throws {
        let store = try subscribed(factory)
        let (p, src, now) = (self.p, self.src, self.now)
        #expect(throws: Fault.self) {
            try store.write { w in
                _ = try w.upsert([Contract.makeInput(value: 1)], patient: p, source: src, now: now)
                throw Fault()
            }
        }
        await #expect(throws: Fault.self) {
            _ = try await store.write(idempotency: nil) { w -> WriteAnswer<Int> in
                _ = try w.upsert([Contract.makeInput(value: 2)], patient: p, source: src, now: now)
                throw Fault()
            }
        }
        #expect(try store.outbox(after: 0, limit: 100).isEmpty)
        #expect(try Contract.readAll(store).samples.isEmpty)
    }

    /// Concurrent writes may share one commit (group commit), each in its own savepoint: the ones that throw take
    /// their outbox entries with them, the others keep theirs.
    @Test(arguments: ContractStores.webhooks)
    func concurrentWritesKeepExactlyTheEntriesOfThoseThatCommitted(factory: ContractWebhookStores) async throws {
        let store = try subscribed(factory)
        let (src, now) = (self.src, self.now)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<16 {
                group.addTask {
                    _ = try? await store.write(idempotency: nil) { w -> WriteAnswer<Int> in
                        _ = try w.upsert([Contract.makeInput(value: Double(i))], patient: "patient-\(i)", source: src, now: now)
                        if i % 2 == 1 { throw Fault() }
                        return WriteAnswer(value: i, status: 200, response: [])
                    }
                }
            }
        }
        let entries = try store.outbox(after: 0, limit: 100)
        #expect(Set(entries.map(\.patient)) == Set(stride(from: 0, to: 16, by: 2).map { "patient-\($0)" }))
        #expect(entries.count == 8)
        // Commit order: each entry's head is above the one before.
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    }
}
