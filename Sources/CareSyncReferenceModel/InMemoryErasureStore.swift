import CareSyncCore
import Foundation

/// Erasure over the reference model's stores: each store removes its part under its own lock (the model has no
/// transaction across stores; the contract suite runs one erasure at a time), and the access store, last, the
/// patient, their tokens and memberships, and appends the receipt.
public final class InMemoryErasureStore: ErasureStore {
    private let sync: InMemorySyncStore
    private let access: InMemoryAccessStore
    private let monitoring: InMemoryMonitoringStore?
    private let webhooks: InMemoryWebhookStore?
    private let exports: InstanceBulkExportStore?

    /// Erasure over the stores of one "database".
    public init(sync: InMemorySyncStore, access: InMemoryAccessStore, monitoring: InMemoryMonitoringStore? = nil,
                webhooks: InMemoryWebhookStore? = nil, exports: InstanceBulkExportStore? = nil) {
        self.sync = sync; self.access = access; self.monitoring = monitoring; self.webhooks = webhooks; self.exports = exports
    }

    public func erase(_ request: ErasureRequest) throws -> ErasureReceipt? {
        guard try access.patient(id: request.patient) != nil else { return nil }
        let tokens = access.tokenIDs(of: request.patient)
        var counts = sync.erase(patient: request.patient, tokens: tokens)
        counts.append(ErasedCount(kind: "webhookDeliveries", count: webhooks?.erase(patient: request.patient) ?? 0))
        counts.append(ErasedCount(kind: "bulkExports", count: exports?.forget(patient: request.patient) ?? 0))
        counts += monitoring?.erase(patient: request.patient)
            ?? ["monitoringEpisodes", "reviewMinutes", "goals"].map { ErasedCount(kind: $0, count: 0) }
        var receipt: ErasureReceipt?
        guard access.erase(request, counts: &counts, receipt: { counts in
            receipt = ErasureReceipt(request: request, counts: counts, tokenIDs: tokens, cleanupComplete: true)
            return receipt!.auditRecords
        }) else { return nil }
        return receipt
    }

    public func wasErased(_ patient: String) throws -> Bool { access.wasErased(patient) }

    public func erasedCount() throws -> Int { access.erasedCount() }
}
