import CareSyncTestSupport
import CareSyncCore
import CareSyncReferenceModel
import Foundation

/// Seeded uuids for the model's server-assigned ones; thread-safe because the model calls it under its lock.
final class SeededUUIDs: Sendable {
    private let generator: Shared<OperationGenerator>
    init(seed: UInt64) { generator = Shared(OperationGenerator(seed: seed)) }
    func next() -> UUID { generator.update { UUID(uuid: $0.randomBytes()) } }
}

/// The first difference between the store under test and the model.
struct Divergence: Error, CustomStringConvertible {
    let description: String
}

/// Applies seeded random operations to a store and to a fresh model, and after each step checks that
/// replaying the store's feed (from no anchor, and from an earlier anchor) rebuilds exactly the model's state.
///
/// Server-assigned uuids differ between the two, so the run keeps a bijection built from the results.
struct ModelBasedRun {
    let store: any SyncStore
    let model: InMemorySyncStore
    var generator: OperationGenerator
    var rng: SeededGenerator
    var storeToModel: [UUID: UUID] = [:]
    var modelToStore: [UUID: UUID] = [:]
    var knownUUIDs: [UUID] = []
    /// Earlier points per patient: the store's anchor, the model's anchor, and the samples then (model uuids).
    var checkpoints: [String: [(store: Anchor, model: Anchor, samples: [UUID: Sample])]] = [:]
    var log: [String] = []

    /// A run on `store`, whose database must hold one webhook subscription (`subscribe`) so that its outbox is
    /// recorded and compared; the model gets the same subscription.
    init(store: any SyncStore, seed: UInt64) throws {
        self.store = store
        generator = OperationGenerator(seed: seed)
        rng = SeededGenerator(seed: seed ^ 0xA5A5_A5A5)
        // Seeded server uuids too, so a seed replays the model exactly.
        let uuids = SeededUUIDs(seed: seed ^ 0x5A5A_5A5A)
        model = InMemorySyncStore(storeID: "model", makeUUID: { uuids.next() })
        try Self.subscribe(InMemoryWebhookStore(sync: model, access: InMemoryAccessStore()))
    }

    /// Subscribes to every patient's changes in `webhooks`, so the outbox of its sync store is recorded.
    static func subscribe(_ webhooks: any WebhookStore) throws {
        try webhooks.createSubscription(WebhookSubscription(
            id: "wh_model", url: "https://clinic.example/model", patients: [], careTeams: [],
            events: [WebhookSubscription.patientChanged], secret: "whsec_model", createdAt: OperationGenerator.base))
    }

    mutating func run(steps: Int) throws {
        for step in 0..<steps {
            let now = OperationGenerator.base.addingTimeInterval(Double(step))
            let op = generator.next(now: now, knownUUIDs: knownUUIDs, liveCount: model.liveCount, live: model.liveSamples)
            log.append("\(step): \(op)")
            do {
                try apply(op, now: now)
                // The feed the step wrote to, every step; every feed after purges and on every tenth step.
                if let patient = op.patient, step % 10 != 0 {
                    try checkFeed(patient: patient)
                } else {
                    for patient in OperationGenerator.patients { try checkFeed(patient: patient) }
                }
                try checkReports()
                if Int.random(in: 0..<10, using: &rng) == 0 { try checkFilteredFeed(patient: op.patient ?? "p1") }
                if step % 100 == 99 || step == steps - 1 { try checkStatistics(); try checkOutbox() }
            } catch {
                throw Divergence(description: "step \(step) (\(op)): \(error)\nlast operations:\n" + log.suffix(12).joined(separator: "\n"))
            }
        }
    }

    /// The webhook outbox: one entry per commit and changed patient, at the same heads as the model's.
    func checkOutbox() throws {
        func entries(_ store: any SyncStore) throws -> [String] {
            try store.outbox(after: 0, limit: 1_000_000).sorted { ($0.sequence, $0.patient) < ($1.sequence, $1.patient) }
                .map { "\($0.patient)@\($0.sequence)" }
        }
        let (got, want) = (try entries(store), try entries(model))
        guard got == want else {
            throw Divergence(description: "outbox: store has \(got.count) entries, model \(want.count); first difference "
                             + "\(zip(got, want).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in length")")
        }
    }

    // MARK: - uuid bijection

    mutating func pair(store s: UUID, model m: UUID) throws {
        if let known = storeToModel[s], known != m { throw Divergence(description: "store uuid \(s) maps to two model uuids") }
        if let known = modelToStore[m], known != s { throw Divergence(description: "model uuid \(m) maps to two store uuids") }
        if storeToModel[s] == nil {
            knownUUIDs.append(m)
            if knownUUIDs.count > 600 { knownUUIDs.removeFirst(100) }
        }
        storeToModel[s] = m; modelToStore[m] = s
    }

    func toModel(_ s: UUID) throws -> UUID {
        guard let m = storeToModel[s] else { throw Divergence(description: "the store shows uuid \(s) that no result announced") }
        return m
    }

    func toModel(_ sample: Sample) throws -> Sample { var copy = sample; copy.uuid = try toModel(sample.uuid); return copy }
    func toModel(_ object: DeletedObject) throws -> DeletedObject { var copy = object; copy.uuid = try toModel(object.uuid); return copy }

    func toModel(_ report: WeeklyReport) throws -> WeeklyReport {
        var copy = report
        copy.samples = try report.samples.mapValues(toModel)
        return copy
    }

    // MARK: - operations

    /// Runs `body` on both sides; they must both succeed or both fail with the same kind of `SyncError`.
    func both<S, M>(_ onStore: () throws -> S, _ onModel: () throws -> M) throws -> (S, M)? {
        let s = Result { try onStore() }, m = Result { try onModel() }
        switch (s, m) {
        case let (.success(a), .success(b)): return (a, b)
        case let (.failure(a), .failure(b)):
            guard Self.kind(a) == Self.kind(b) else { throw Divergence(description: "store threw \(a), model threw \(b)") }
            return nil
        case let (.success(a), .failure(b)): throw Divergence(description: "store succeeded with \(a), model threw \(b)")
        case let (.failure(a), .success(b)): throw Divergence(description: "store threw \(a), model succeeded with \(b)")
        }
    }

    static func kind(_ error: Error) -> String {
        guard let sync = error as? SyncError else { return "\(error)" }
        switch sync {
        case .conflict: return "conflict"
        case .validationFailed: return "validationFailed"
        default: return "\(sync)"
        }
    }

    mutating func apply(_ op: Operation, now: Date) throws {
        switch op {
        case let .upsert(patient, source, samples):
            guard let (s, m) = try both({ try store.upsert(samples, patient: patient, source: source, now: now) },
                                        { try model.upsert(samples, patient: patient, source: source, now: now) }) else { return }
            guard s.results.map(\.outcome) == m.results.map(\.outcome), s.results.map(\.index) == m.results.map(\.index) else {
                throw Divergence(description: "outcomes: store \(s.results.map(\.outcome)), model \(m.results.map(\.outcome))")
            }
            for (a, b) in zip(s.results, m.results) { try pair(store: a.uuid, model: b.uuid) }
        case let .delete(patient, source, uuids, ids):
            let storeUUIDs = uuids.map { modelToStore[$0] ?? $0 }
            guard let (s, m) = try both({ try store.delete(uuids: storeUUIDs, syncIdentifiers: ids, patient: patient, source: source, now: now) },
                                        { try model.delete(uuids: uuids, syncIdentifiers: ids, patient: patient, source: source, now: now) })
            else { return }
            guard s.results.map(\.outcome) == m.results.map(\.outcome), s.results.map(\.syncIdentifier) == m.results.map(\.syncIdentifier) else {
                throw Divergence(description: "delete results: store \(s.results), model \(m.results)")
            }
            for (a, b) in zip(s.results, m.results) {
                switch (a.uuid, b.uuid) {
                case let (x?, y?): if b.syncIdentifier != nil { try pair(store: x, model: y) }
                case (nil, nil): break
                default: throw Divergence(description: "delete result uuid: store \(a), model \(b)")
                }
            }
        case let .report(patient, source, report):
            guard let (s, m) = try both({ try store.upsertReport(report, patient: patient, source: source, now: now) },
                                        { try model.upsertReport(report, patient: patient, source: source, now: now) }) else { return }
            guard s.outcome == m.outcome, Set(s.report.samples.keys) == Set(m.report.samples.keys) else {
                throw Divergence(description: "report: store \(s.outcome) \(s.report.samples.keys.sorted()), model \(m.outcome) \(m.report.samples.keys.sorted())")
            }
            // In key order: the pairing order feeds the generator, and a seed must replay exactly.
            for key in s.report.samples.keys.sorted() { try pair(store: s.report.samples[key]!.uuid, model: m.report.samples[key]!.uuid) }
            guard try toModel(s.report) == m.report else { throw Divergence(description: "report: store \(s.report), model \(m.report)") }
        case let .deleteReport(patient, source, id):
            guard let (s, m) = try both({ try store.deleteReport(patient: patient, syncIdentifier: id, source: source, now: now) },
                                        { try model.deleteReport(patient: patient, syncIdentifier: id, source: source, now: now) })
            else { return }
            guard (s == nil) == (m == nil) else { throw Divergence(description: "deleteReport: store \(String(describing: s)), model \(String(describing: m))") }
        case let .purge(before):
            guard let (s, m) = try both({ try store.purgeTombstones(before: before) }, { try model.purgeTombstones(before: before) })
            else { return }
            guard s == m else { throw Divergence(description: "purged: store \(s), model \(m)") }
        }
    }

    // MARK: - checks

    mutating func checkFeed(patient: String) throws {
        let expected = model.snapshot(patient: patient)
        // From no anchor: exactly the model's samples and tombstones.
        let (samples, deleted, anchor) = try replay(patient: patient, from: nil, into: [:])
        guard samples == expected.samples else {
            throw Divergence(description: "\(patient) full replay: samples \(Self.diff(samples, expected.samples))")
        }
        guard deleted == expected.deletedObjects else {
            throw Divergence(description: "\(patient) full replay: deleted objects \(Self.diff(deleted, expected.deletedObjects))")
        }
        try checkChecksums(patient: patient, samples: samples, at: anchor)
        // From a random earlier anchor: the samples then, plus the feed since, are the samples now.
        var points = checkpoints[patient, default: []]
        if !points.isEmpty {
            let index = Int.random(in: 0..<points.count, using: &rng)
            let point = points[index]
            var modelExpired = false
            do {
                _ = try model.changes(ChangeQuery(patient: patient, anchor: point.model, limit: 1))
            } catch SyncError.anchorExpired {
                modelExpired = true
            }
            if modelExpired {
                do {
                    _ = try store.changes(ChangeQuery(patient: patient, anchor: point.store, limit: 1))
                    throw Divergence(description: "\(patient): an anchor older than the purge horizon was not refused")
                } catch SyncError.anchorExpired {
                    points.remove(at: index)
                }
            } else {
                let rebuilt: [UUID: Sample]
                do {
                    rebuilt = try replay(patient: patient, from: point.store, into: point.samples).0
                } catch {
                    throw Divergence(description: "\(patient) replay from store anchor \(point.store.sequence) (model \(point.model.sequence)): \(error)")
                }
                guard rebuilt == expected.samples else {
                    throw Divergence(description: "\(patient) replay from an earlier anchor: \(Self.diff(rebuilt, expected.samples))")
                }
                try checkChecksums(patient: patient, samples: point.samples, at: point.store)
            }
        }
        points.append((anchor, try model.currentAnchor(), expected.samples))
        if points.count > 64 { points.remove(at: Int.random(in: 0..<points.count, using: &rng)) }
        checkpoints[patient] = points
    }

    /// Follows the store's feed from `anchor` with a random page size, applying it to `start` (model uuids).
    mutating func replay(patient: String, from anchor: Anchor?, into start: [UUID: Sample])
        throws -> ([UUID: Sample], [UUID: DeletedObject], Anchor) {
        let limit = chanceSmall() ? Int.random(in: 1...7, using: &rng) : Int.random(in: 8...500, using: &rng)
        var samples = start, deleted: [UUID: DeletedObject] = [:]
        var next = anchor, seen = Set<UUID>()
        while true {
            let page = try store.changes(ChangeQuery(patient: patient, anchor: next, limit: limit))
            guard page.samples.count + page.deletedObjects.count <= limit else { throw Divergence(description: "page over its limit") }
            for object in page.deletedObjects {
                let m = try toModel(object)
                guard seen.insert(m.uuid).inserted else { throw Divergence(description: "uuid \(m.uuid) twice in one replay") }
                samples[m.uuid] = nil
                deleted[m.uuid] = m
            }
            for sample in page.samples {
                let m = try toModel(sample)
                guard seen.insert(m.uuid).inserted else { throw Divergence(description: "uuid \(m.uuid) twice in one replay") }
                samples[m.uuid] = m
            }
            next = page.anchor
            if !page.hasMore { return (samples, deleted, page.anchor) }
            guard !(page.samples.isEmpty && page.deletedObjects.isEmpty) else { throw Divergence(description: "empty page with more after it") }
        }
    }

    mutating func chanceSmall() -> Bool { Int.random(in: 0..<10, using: &rng) == 0 }

    func checkReports() throws {
        for patient in OperationGenerator.patients {
            for id in OperationGenerator.reportIDs {
                let sources = try store.reportSources(patient: patient, syncIdentifier: id)
                guard sources == (try model.reportSources(patient: patient, syncIdentifier: id)) else {
                    throw Divergence(description: "report sources of \(patient)/\(id) differ")
                }
                for source in OperationGenerator.therapists {
                    let s = try store.report(patient: patient, syncIdentifier: id, source: source).map(toModel)
                    let m = try model.report(patient: patient, syncIdentifier: id, source: source)
                    guard s == m else {
                        throw Divergence(description: "report \(patient)/\(source)/\(id): store \(String(describing: s)), model \(String(describing: m))")
                    }
                }
            }
            let week = CalendarDay(year: 2020, month: 6, day: 15)
            let listed = try store.allReports(patient: patient, from: week, to: week).map(toModel)
            guard listed == (try model.allReports(patient: patient, from: week, to: week)) else {
                throw Divergence(description: "report list of \(patient) differs")
            }
            guard try store.allReports(patient: patient, from: week.adding(days: 1), to: week.adding(days: 30)).isEmpty else {
                throw Divergence(description: "report list of \(patient) outside its range is not empty")
            }
        }
    }

    static func diff<V: Equatable>(_ got: [UUID: V], _ want: [UUID: V]) -> String {
        let missing = want.keys.filter { got[$0] == nil }, extra = got.keys.filter { want[$0] == nil }
        let changed = want.keys.filter { got[$0] != nil && got[$0] != want[$0] }
        return "missing \(missing.count) \(missing.prefix(3)), unexpected \(extra.count) \(extra.prefix(3)), different \(changed.count) "
            + changed.prefix(2).map { "got \(got[$0]!) want \(want[$0]!)" }.joined(separator: "; ")
    }
}
