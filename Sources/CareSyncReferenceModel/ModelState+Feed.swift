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
        var times: [UUID: Date] = [:]
        var lastRead = after
        let sequences = patientLog[query.patient] ?? []
        var low = 0, high = sequences.count
        while low < high {
            let mid = (low + high) / 2
            if sequences[mid] <= after { low = mid + 1 } else { high = mid }
        }
        let last = query.through.map { min($0, head) } ?? head
        for sequence in sequences[low...] {
            if sequence > last { break }
            guard let slot = log[Int(sequence - 1)] else { continue }
            switch slot {
            case let .sample(uuid):
                let sample = live[SampleID(patient: query.patient, uuid: uuid)]!.sample
                guard Self.matches(sample.type, sample.source, sample.start, sample.end, query) else { continue }
                if samples.count + deleted.count == limit { return page(samples, deleted, lastRead, storeID, more: true, times: times) }
                samples.append(sample)
                if query.writeTimes { times[sample.uuid] = writeTime(of: sequence) }
            case let .tombstone(uuid):
                let object = tombstones[SampleID(patient: query.patient, uuid: uuid)]!.object
                guard Self.matches(object.type, object.source, object.start, object.end, query) else { continue }
                if samples.count + deleted.count == limit { return page(samples, deleted, lastRead, storeID, more: true, times: times) }
                deleted.append(object)
            }
            lastRead = sequence
        }
        return page(samples, deleted, query.lastPosition(head: head, after: after), storeID, more: false, times: times)
    }

    private func page(_ samples: [Sample], _ deleted: [DeletedObject], _ sequence: Int64, _ storeID: String, more: Bool,
                      times: [UUID: Date]) -> ChangeSet {
        ChangeSet(samples: samples, deletedObjects: deleted, anchor: Anchor(storeID: storeID, sequence: sequence, horizon: purgeHorizon),
                  hasMore: more, writeTimes: times)
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
