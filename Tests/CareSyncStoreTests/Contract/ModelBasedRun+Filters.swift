import CareSyncCore
import Foundation

extension ModelBasedRun {
    /// Reads a feed with random filters (types, source, time range) from no anchor on both sides:
    /// the store must list exactly the model's items, in the same order.
    mutating func checkFilteredFeed(patient: String) throws {
        let allTypes: [SampleType] = [.stepCount, .heartRate, .sleepAnalysis, .bodyMass, .sixMinuteWalkTestDistance]
        var query = ChangeQuery(patient: patient, limit: Int.random(in: 3...100, using: &rng))
        if Bool.random(using: &rng) { query.types = Set(allTypes.filter { _ in Bool.random(using: &rng) }) }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            query.source = (OperationGenerator.sources + OperationGenerator.therapists).randomElement(using: &rng)
        }
        if Bool.random(using: &rng) {
            let from = OperationGenerator.base.addingTimeInterval(Double(Int.random(in: 0...10_000, using: &rng)) * 60)
            query.from = from
            if Bool.random(using: &rng) { query.to = from.addingTimeInterval(Double(Int.random(in: 0...3000, using: &rng)) * 60) }
        }
        let got = try readFiltered(query, from: store, translate: true)
        let want = try readFiltered(query, from: model, translate: false)
        guard got == want else {
            let storePages = got.map(\.count), modelPages = want.map(\.count)
            throw Divergence(description: "filtered feed \(query): store page sizes \(storePages), model page sizes \(modelPages)")
        }
    }

    /// The pages of a filtered feed, each as the set of its items (model uuids; deleted objects flagged).
    private func readFiltered(_ base: ChangeQuery, from source: any SyncStore, translate: Bool) throws -> [Set<ContractFeedItem>] {
        var query = base
        var pages: [Set<ContractFeedItem>] = []
        while true {
            let page = try source.changes(query)
            var items = Set<ContractFeedItem>()
            for sample in page.samples { items.insert(ContractFeedItem(deleted: false, uuid: translate ? try toModel(sample.uuid) : sample.uuid)) }
            for object in page.deletedObjects { items.insert(ContractFeedItem(deleted: true, uuid: translate ? try toModel(object.uuid) : object.uuid)) }
            pages.append(items)
            query.anchor = page.anchor
            if !page.hasMore { return pages }
        }
    }
}

/// One item of a feed page, for comparing pages.
struct ContractFeedItem: Hashable {
    var deleted: Bool
    var uuid: UUID
}
