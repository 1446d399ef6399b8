import CareSyncCore
import Foundation

extension ModelState {
    /// The anchor at the head of the log, stamped with the purge horizon.
    func headAnchor(_ storeID: String) -> Anchor { Anchor(storeID: storeID, sequence: head, horizon: purgeHorizon) }

    /// The largest page a query may ask for.
    static let maxLimit = 5000

    /// One page of the anchored change feed (see docs/sync-rules.md, "Change log and feed").
    func changes(_ query: ChangeQuery, storeID: String) throws -> ChangeSet {
        var after: Int64 = 0
        if let anchor = query.anchor {
            try anchor.validate(storeID: storeID, head: head, storeHorizon: purgeHorizon)
            after = anchor.sequence
        }
        let limit = min(max(query.limit, 1), Self.maxLimit)
        var samples: [Sample] = [], deleted: [DeletedObject] = []
        var last = after
        var index = Int(after)
        while index < log.count {
            defer { index += 1 }
            guard let slot = log[index] else { continue }
            let matched: Bool
            switch slot {
            case let .sample(uuid):
                let entry = live[uuid]!
                matched = entry.patient == query.patient && Self.matches(entry.sample.type, entry.sample.source,
                                                                          entry.sample.start, entry.sample.end, query)
                if matched {
                    if samples.count + deleted.count == limit { return page(samples, deleted, last, storeID, more: true) }
                    samples.append(entry.sample)
                }
            case let .tombstone(uuid):
                let tomb = tombstones[uuid]!
                matched = tomb.patient == query.patient && Self.matches(tomb.object.type, tomb.object.source,
                                                                         tomb.object.start, tomb.object.end, query)
                if matched {
                    if samples.count + deleted.count == limit { return page(samples, deleted, last, storeID, more: true) }
                    deleted.append(tomb.object)
                }
            }
            if matched { last = Int64(index + 1) }
        }
        return page(samples, deleted, head, storeID, more: false)
    }

    private func page(_ samples: [Sample], _ deleted: [DeletedObject], _ sequence: Int64, _ storeID: String, more: Bool) -> ChangeSet {
        ChangeSet(samples: samples, deletedObjects: deleted, anchor: Anchor(storeID: storeID, sequence: sequence, horizon: purgeHorizon),
                  hasMore: more)
    }

    /// The query's filters: types, source, and the time range (`start < to` and (`end > from` or `start >= from`)).
    static func matches(_ type: SampleType, _ source: String, _ start: Date, _ end: Date, _ query: ChangeQuery) -> Bool {
        if let types = query.types, !types.contains(type) { return false }
        if let wanted = query.source, wanted != source { return false }
        if let to = query.to, !(start < to) { return false }
        if let from = query.from, !(end > from || start >= from) { return false }
        return true
    }
}

/// What the model holds for one patient, for tests to compare a store's rebuilt state against.
public struct ModelSnapshot: Hashable, Sendable {
    /// Live samples by uuid.
    public var samples: [UUID: Sample]
    /// Kept tombstones by uuid.
    public var deletedObjects: [UUID: DeletedObject]
    /// Creates a snapshot.
    public init(samples: [UUID: Sample], deletedObjects: [UUID: DeletedObject]) {
        self.samples = samples; self.deletedObjects = deletedObjects
    }
}

extension InMemorySyncStore {
    /// The live samples and kept tombstones of `patient`.
    public func snapshot(patient: String) -> ModelSnapshot {
        read { state in
            ModelSnapshot(samples: state.live.filter { $0.value.patient == patient }.mapValues(\.sample),
                          deletedObjects: state.tombstones.filter { $0.value.patient == patient }.mapValues(\.object))
        }
    }

    /// The sequence below which anchors are expired.
    public var purgeHorizon: Int64 { read { $0.purgeHorizon } }
}
