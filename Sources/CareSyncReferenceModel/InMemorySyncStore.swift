import CareSyncCore
import Foundation

/// The sync rules in plain Swift collections: the oracle every `SyncStore` is tested against.
///
/// Thread-safe (one lock around everything); every write is atomic: it works on a copy of the state
/// and commits it only when the whole request succeeded. The exact semantics are in docs/sync-rules.md.
public final class InMemorySyncStore: SyncStore, @unchecked Sendable {
    /// The id anchors from this store carry.
    public let storeID: String
    private let makeUUID: @Sendable () -> UUID
    private let lock = NSLock()
    private var state = ModelState()

    /// Creates an empty store; `makeUUID` assigns server uuids (inject it for reproducible runs).
    public init(storeID: String = UUID().uuidString, makeUUID: @escaping @Sendable () -> UUID = { UUID() }) {
        self.storeID = storeID
        self.makeUUID = makeUUID
    }

    /// Runs `body` on a copy of the state under the lock and commits the copy only if it returns.
    private func write<T>(_ body: (inout ModelState) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        var working = state
        let result = try body(&working)
        state = working
        return result
    }

    /// Runs `body` on the state itself under the lock: for writes that cannot fail half-way.
    private func writeInPlace<T>(_ body: (inout ModelState) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&state)
    }

    /// Reads the state under the lock.
    func read<T>(_ body: (ModelState) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(state)
    }

    /// A fresh uuid that no live sample or tombstone uses.
    private func freshUUID(in state: ModelState) -> UUID {
        while true {
            let uuid = makeUUID()
            if state.live[uuid] == nil && state.tombstones[uuid] == nil { return uuid }
        }
    }

    /// Applies a batch by `SyncRules.upsertDecision`, in order, atomically.
    public func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> UpsertBatchResult {
        // Only a client uuid can make a batch fail half-way (conflict); without one, skip the copy.
        if samples.allSatisfy({ $0.uuid == nil }) {
            return try writeInPlace { state in Result { try apply(samples, patient: patient, source: source, now: now, to: &state) } }.get()
        }
        return try write { state in try apply(samples, patient: patient, source: source, now: now, to: &state) }
    }

    /// The upsert rules applied in order to `state`; throws on the first conflict.
    private func apply(_ samples: [SampleInput], patient: String, source: String, now: Date,
                       to state: inout ModelState) throws -> UpsertBatchResult {
        var results: [UpsertItemResult] = []
        for (index, input) in samples.enumerated() {
            let byKey = input.syncIdentifier.flatMap { state.sample(patient: patient, source: source, syncIdentifier: $0) }
            let decision = SyncRules.upsertDecision(incoming: input, patient: patient, source: source,
                                                    byUUID: state.existing(input.uuid), byKey: byKey)
            switch decision {
            case let .conflict(message):
                throw SyncError.conflict("samples[\(index)]: \(message)")
            case let .ignore(reason, existing):
                results.append(UpsertItemResult(index: index, uuid: existing, outcome: .ignored(reason)))
            case .insert, .replace:
                if case let .replace(old) = decision { state.tombstone(old.uuid, now: now) }
                let uuid = input.uuid ?? freshUUID(in: state)
                state.insert(Self.sample(input, uuid: uuid, source: source), patient: patient)
                let outcome: UpsertOutcome = if case .replace = decision { .replaced } else { .inserted }
                results.append(UpsertItemResult(index: index, uuid: uuid, outcome: outcome))
            }
        }
        return UpsertBatchResult(anchor: state.headAnchor(storeID), results: results)
    }

    /// Deletes own samples by uuid, then by sync identifier, each leaving a tombstone.
    public func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> DeleteBatchResult {
        writeInPlace { state in
            var results: [DeleteItemResult] = []
            for uuid in uuids {
                guard let entry = state.live[uuid], entry.patient == patient else {
                    results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .notFound))
                    continue
                }
                let owned = entry.sample.source == source
                if owned { state.tombstone(uuid, now: now) }
                results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: owned ? .deleted : .notOwned))
            }
            for id in syncIdentifiers {
                if let sample = state.sample(patient: patient, source: source, syncIdentifier: id) {
                    state.tombstone(sample.uuid, now: now)
                    results.append(DeleteItemResult(uuid: sample.uuid, syncIdentifier: id, outcome: .deleted))
                } else {
                    results.append(DeleteItemResult(uuid: nil, syncIdentifier: id, outcome: .notFound))
                }
            }
            return DeleteBatchResult(anchor: state.headAnchor(storeID), results: results)
        }
    }

    /// The head of the change log, stamped with the purge horizon.
    public func currentAnchor() throws -> Anchor {
        read { $0.headAnchor(storeID) }
    }

    /// One page of the feed: each uuid's latest entry after the anchor, in sequence order.
    public func changes(_ query: ChangeQuery) throws -> ChangeSet {
        try read { state in try state.changes(query, storeID: storeID) }
    }

    /// Posts a report by `WeeklyReportPlanner.plan`.
    public func upsertReport(_ report: WeeklyReportInput, patient: String, source: String, now: Date) throws -> WeeklyReportUpsertResult {
        writeInPlace { state in
            let key = ModelState.Key(patient: patient, source: source, syncIdentifier: report.syncIdentifier)
            let stored = state.reports[key].map { StoredReportState(syncVersion: $0.syncVersion, samples: state.samples(of: $0, key: key)) }
            let plan = WeeklyReportPlanner.plan(stored: stored, input: report)
            if plan.outcome != .ignored {
                for action in plan.actions {
                    switch action {
                    case .keep: break
                    case let .delete(_, old): state.tombstone(old.uuid, now: now)
                    case let .replace(_, old, new):
                        state.tombstone(old.uuid, now: now)
                        state.insert(Self.sample(new, uuid: freshUUID(in: state), source: source), patient: patient)
                    case let .insert(_, new):
                        // A sample posted directly under the derived identifier gives way to the report.
                        if let squatter = state.sample(patient: patient, source: source, syncIdentifier: new.syncIdentifier!) {
                            state.tombstone(squatter.uuid, now: now)
                        }
                        state.insert(Self.sample(new, uuid: freshUUID(in: state), source: source), patient: patient)
                    }
                }
                state.reports[key] = ModelState.Report(syncVersion: report.syncVersion, weekStart: report.weekStart,
                                                       timeZone: report.timeZone, keys: report.samples.map(\.key), updatedAt: now)
            }
            let outcome = WeeklyReportUpsertResult.Outcome(rawValue: plan.outcome.rawValue)!
            return WeeklyReportUpsertResult(outcome: outcome, anchor: state.headAnchor(storeID),
                                            report: state.weeklyReport(state.reports[key]!, key: key))
        }
    }

    /// The most recently updated report with this id (any source), or nil.
    public func report(patient: String, syncIdentifier: String) throws -> WeeklyReport? {
        read { state in
            state.reports.filter { $0.key.patient == patient && $0.key.syncIdentifier == syncIdentifier }
                .min { a, b in (a.value.updatedAt, b.key.source) > (b.value.updatedAt, a.key.source) }
                .map { state.weeklyReport($0.value, key: $0.key) }
        }
    }

    /// Reports whose week starts in `[from, to]`, by week start, id and source.
    public func reports(patient: String, from: CalendarDay, to: CalendarDay) throws -> [WeeklyReport] {
        read { state in
            state.reports.filter { $0.key.patient == patient && $0.value.weekStart >= from && $0.value.weekStart <= to }
                .sorted { a, b in
                    (a.value.weekStart, a.key.syncIdentifier, a.key.source) < (b.value.weekStart, b.key.syncIdentifier, b.key.source)
                }
                .map { state.weeklyReport($0.value, key: $0.key) }
        }
    }

    /// Deletes the caller's report and tombstones its live samples, in key order.
    public func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Anchor? {
        writeInPlace { state in
            let key = ModelState.Key(patient: patient, source: source, syncIdentifier: syncIdentifier)
            guard let report = state.reports.removeValue(forKey: key) else { return nil }
            let samples = state.samples(of: report, key: key)
            for item in samples.keys.sorted() { state.tombstone(samples[item]!.uuid, now: now) }
            return state.headAnchor(storeID)
        }
    }

    /// Purges tombstones deleted before `horizon` and raises the purge horizon.
    public func purgeTombstones(before horizon: Date) throws -> Int {
        writeInPlace { state in
            let purged = state.tombstones.values.filter { $0.object.deletedAt < horizon }
            for tomb in purged {
                state.tombstones[tomb.object.uuid] = nil
                state.log[Int(tomb.sequence - 1)] = nil
                state.purgeHorizon = max(state.purgeHorizon, tomb.sequence)
            }
            return purged.count
        }
    }

    /// A stored sample from an input: the given uuid and source, canonical values as they came.
    static func sample(_ input: SampleInput, uuid: UUID, source: String) -> Sample {
        Sample(uuid: uuid, type: input.type, value: input.value, start: input.start, end: input.end,
               syncIdentifier: input.syncIdentifier, syncVersion: input.syncVersion, source: source, metadata: input.metadata)
    }
}
