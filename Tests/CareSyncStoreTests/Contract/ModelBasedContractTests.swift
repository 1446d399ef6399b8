import CareSyncCore
import CareSyncReferenceModel
import Foundation
import CareSyncTestSupport
import Testing

/// Thousands of seeded random operations on every store, checked against the reference model after each step.
///
/// `CARESYNC_MODEL_OPS` sets the number of operations (default 2,000), `CARESYNC_MODEL_SEED` replays a seed.
@Suite struct ModelBasedContractTests {
    static var steps: Int { ProcessInfo.processInfo.environment["CARESYNC_MODEL_OPS"].flatMap(Int.init) ?? 2000 }
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["CARESYNC_MODEL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    }

    /// The stores to run: all, or those named in `CARESYNC_MODEL_STORES` (comma list).
    static var stores: [ContractWebhookStores] {
        guard let names = ProcessInfo.processInfo.environment["CARESYNC_MODEL_STORES"] else { return ContractStores.webhooks }
        let wanted = Set(names.split(separator: ",").map(String.init))
        return ContractStores.webhooks.filter { wanted.contains($0.name) }
    }

    @Test(arguments: stores)
    func randomOperationsMatchTheModel(factory: ContractWebhookStores) async throws {
        try await onDedicatedThread { try Self.runAgainstTheModel(factory) }
    }

    /// The body of the test above: seconds of blocking store work, run off the cooperative pool.
    static func runAgainstTheModel(_ factory: ContractWebhookStores) throws {
        let seed = Self.seed
        let (store, _, webhooks) = try factory.make()
        try ModelBasedRun.subscribe(webhooks)
        var run = try ModelBasedRun(store: store, seed: seed)
        let started = Date()
        do {
            try run.run(steps: Self.steps)
            if ProcessInfo.processInfo.environment["CARESYNC_MODEL_VERBOSE"] != nil {
                let sizes = OperationGenerator.patients.map { patient -> String in
                    let snapshot = run.model.snapshot(patient: patient)
                    return "\(patient) \(snapshot.samples.count) samples \(snapshot.deletedObjects.count) tombstones"
                }
                print("model-based run of \(factory.name): \(Self.steps) operations, seed \(seed), "
                      + "\(Date().timeIntervalSince(started)) s; at the end \(sizes.joined(separator: ", "))")
            }
        } catch {
            print("model-based run of \(factory.name) failed: rerun with CARESYNC_MODEL_SEED=\(seed)")
            Issue.record("\(factory.name), seed \(seed) (CARESYNC_MODEL_SEED=\(seed)): \(error)")
        }
    }

    /// The run must be able to fail: stores with a classic feed bug are caught.
    @Test(arguments: BrokenStore.Fault.allCases)
    func brokenStoresAreCaught(fault: BrokenStore.Fault) async throws {
        try await onDedicatedThread { Self.expectCaught(fault) }
    }

    /// The body of the test above, run off the cooperative pool.
    static func expectCaught(_ fault: BrokenStore.Fault) {
        let seed = Self.seed
        let base = InMemorySyncStore()
        do {
            try ModelBasedRun.subscribe(InMemoryWebhookStore(sync: base, access: InMemoryAccessStore()))
            var run = try ModelBasedRun(store: BrokenStore(base: base, fault: fault), seed: seed)
            try run.run(steps: 600)
            Issue.record("fault \(fault) went unnoticed with seed \(seed)")
        } catch {
            #expect(error is Divergence)
            if ProcessInfo.processInfo.environment["CARESYNC_MODEL_VERBOSE"] != nil { print("caught \(fault): \(error)") }
        }
    }
}
