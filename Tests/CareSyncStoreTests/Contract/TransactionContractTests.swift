import CareSyncCore
import Foundation
import Testing

/// The write seam every store implements: one transaction for the sync writes, the audit record and the
/// idempotency record; commits tell which patients changed.
@Suite struct TransactionContractTests {
    let p = Contract.patient, src = Contract.device, now = Contract.t0

    struct Fault: Error {}

    func audit(_ action: String) -> AuditRecord {
        AuditRecord(time: Contract.t0, tokenID: "token-1", role: .device, patient: Contract.patient, action: action, count: 1, status: 200)
    }

    /// A keyed upsert of one sample with `value`, answered with "first" or "second".
    func post(_ store: any SyncStore, hash: [UInt8], value: Double, answer: String) async throws -> IdempotentWriteResult<UpsertBatchResult> {
        let claim = IdempotencyClaim(key: IdempotencyKey(scope: "token-1", key: "k"), requestHash: hash, now: now, lifetime: 24 * 3600)
        let (p, src, now) = (self.p, self.src, self.now)
        return try await store.write(idempotency: claim) { w in
            let results = try w.upsert([Contract.makeInput(value: value)], patient: p, source: src, now: now)
            return WriteAnswer(value: UpsertBatchResult(anchor: try w.headAnchor(), results: results), status: 200, response: Array(answer.utf8))
        }
    }

    @Test(arguments: ContractStores.all)
    func aKeyedWriteRunsOnceAndReplaysItsAnswerAndRefusesAnotherRequest(factory: ContractStore) async throws {
        let store = try factory.make()
        guard case .performed = try await post(store, hash: [1], value: 1, answer: "first") else { Issue.record("first write should run"); return }
        guard case .replayed(let record) = try await post(store, hash: [1], value: 1, answer: "second") else {
            Issue.record("a retry should replay"); return
        }
        #expect(record.response == Array("first".utf8) && record.status == 200)
        guard case .keyReused = try await post(store, hash: [2], value: 2, answer: "second") else { Issue.record("another body should be refused"); return }
        #expect(try Contract.readAll(store).samples.count == 1)
        #expect(try store.purgeIdempotencyRecords(now: now.addingTimeInterval(23 * 3600)) == 0)
        #expect(try store.purgeIdempotencyRecords(now: now.addingTimeInterval(25 * 3600)) == 1)
        // Forgotten: the key runs again.
        guard case .performed = try await post(store, hash: [2], value: 2, answer: "third") else { Issue.record("an expired key runs"); return }
    }

    @Test(arguments: ContractStores.pairs)
    func theAuditRecordCommitsWithTheWriteAndAThrowStoresNothing(factory: ContractStorePair) async throws {
        let (store, access) = try factory.make()
        let (p, src, now) = (self.p, self.src, self.now)
        let stored = audit("samples.upsert"), lost = audit("samples.lost")
        _ = try await store.write(idempotency: nil) { w in
            _ = try w.upsert([Contract.makeInput(value: 1)], patient: p, source: src, now: now)
            try w.appendAudit(stored)
            return WriteAnswer(value: 0, status: 200, response: [])
        }
        let claim = IdempotencyClaim(key: IdempotencyKey(scope: "token-1", key: "x"), requestHash: [9], now: now, lifetime: 3600)
        await #expect(throws: Fault.self) {
            _ = try await store.write(idempotency: claim) { w -> WriteAnswer<Int> in
                _ = try w.upsert([Contract.makeInput(value: 2)], patient: p, source: src, now: now)
                try w.appendAudit(lost)
                throw Fault()
            }
        }
        #expect(try Contract.readAll(store).samples.map(\.value) == [1])
        #expect(try access.audit(AuditQuery(patient: p)).map(\.action) == ["samples.upsert"])
        // The failed write recorded no answer either: the same key runs now.
        guard case .performed = try await store.write(idempotency: claim, { _ in WriteAnswer(value: 0, status: 200, response: []) }) else {
            Issue.record("a failed keyed write must leave no record"); return
        }
    }

    @Test(arguments: ContractStores.all)
    func aCommitSignalsThePatientsItChangedAndNoOthers(factory: ContractStore) throws {
        let store = try factory.make()
        let notifier = store.notifier
        let (mine, other) = (notifier.generation(of: p), notifier.generation(of: "other"))
        _ = try store.upsert([Contract.makeInput(syncIdentifier: "s", syncVersion: 1)], patient: p, source: src, now: now)
        #expect(notifier.generation(of: p) != mine)
        #expect(notifier.generation(of: "other") == other)
        // Every item ignored: the feed did not change, nobody is woken.
        let after = notifier.generation(of: p)
        _ = try store.upsert([Contract.makeInput(syncIdentifier: "s", syncVersion: 1)], patient: p, source: src, now: now)
        #expect(notifier.generation(of: p) == after)
        _ = try store.delete(uuids: [], syncIdentifiers: ["s"], patient: p, source: src, now: now)
        #expect(notifier.generation(of: p) != after)
    }
}
