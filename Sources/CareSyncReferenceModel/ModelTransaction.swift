import CareSyncCore
import Foundation

/// A write transaction on a copy of the model's state: the store keeps the copy only if the body returns.
final class ModelTransaction: SyncTransaction {
    var state: ModelState
    let storeID: String
    private let makeUUID: @Sendable () -> UUID
    /// Audit records appended in this transaction, handed to the access store on commit.
    private(set) var audit: [AuditRecord] = []
    /// Patients whose feed this transaction changed.
    private(set) var changedPatients: Set<String> = []

    init(state: ModelState, storeID: String, makeUUID: @escaping @Sendable () -> UUID) {
        self.state = state; self.storeID = storeID; self.makeUUID = makeUUID
    }

    /// The latest `now` its writes were given: the time its commit records (`WriteTimes`).
    private(set) var latestNow: Date?

    /// Runs `body` and notes `patient` as changed when the change log grew, and `now` as a time of this transaction.
    private func changing<T>(_ patient: String, now: Date, _ body: () throws -> T) rethrows -> T {
        latestNow = max(latestNow ?? now, now)
        let before = state.head
        defer { if state.head != before { changedPatients.insert(patient) } }
        return try body()
    }

    /// Refuses an erased id, as every store's writes do (`SampleRowWriter.refuseErased`).
    private func refuseErased(_ patient: String) throws {
        if state.erased.contains(patient) { throw ErasedPatientWrite(patient: patient) }
    }

    private func freshUUID(_ patient: String) -> UUID {
        while true {
            let uuid = makeUUID()
            let id = ModelState.SampleID(patient: patient, uuid: uuid)
            if state.live[id] == nil && state.tombstones[id] == nil { return uuid }
        }
    }

    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult] {
        try refuseErased(patient)
        return try changing(patient, now: now) {
            var results: [UpsertItemResult] = []
            for (index, input) in samples.enumerated() {
                let byKey = input.syncIdentifier.flatMap { state.sample(patient: patient, source: source, syncIdentifier: $0) }
                let decision = SyncRules.upsertDecision(incoming: input, patient: patient, source: source,
                                                        byUUID: state.existing(input.uuid, patient: patient), byKey: byKey)
                switch decision {
                case let .conflict(message):
                    throw SyncError.conflict("samples[\(index)]: \(message)")
                case let .ignore(reason, existing):
                    results.append(UpsertItemResult(index: index, uuid: existing, outcome: .ignored(reason)))
                case .insert, .replace:
                    if case let .replace(old) = decision { state.tombstone(old.uuid, patient: patient, now: now) }
                    let uuid = input.uuid ?? freshUUID(patient)
                    state.insert(Self.sample(input, uuid: uuid, source: source), patient: patient)
                    let outcome: UpsertOutcome = if case .replace = decision { .replaced } else { .inserted }
                    results.append(UpsertItemResult(index: index, uuid: uuid, outcome: outcome))
                }
            }
            return results
        }
    }

    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> [DeleteItemResult] {
        try refuseErased(patient)
        return changing(patient, now: now) {
            var results: [DeleteItemResult] = []
            for uuid in uuids {
                guard let entry = state.live[ModelState.SampleID(patient: patient, uuid: uuid)] else {
                    results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .notFound))
                    continue
                }
                let owned = entry.sample.source == source
                if owned { state.tombstone(uuid, patient: patient, now: now) }
                results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: owned ? .deleted : .notOwned,
                                                type: entry.sample.type))
            }
            for id in syncIdentifiers {
                if let sample = state.sample(patient: patient, source: source, syncIdentifier: id) {
                    state.tombstone(sample.uuid, patient: patient, now: now)
                    results.append(DeleteItemResult(uuid: sample.uuid, syncIdentifier: id, outcome: .deleted, type: sample.type))
                } else {
                    results.append(DeleteItemResult(uuid: nil, syncIdentifier: id, outcome: .notFound))
                }
            }
            return results
        }
    }

    func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        state.reports.keys.filter { $0.patient == patient && !($0.source == source && $0.syncIdentifier == syncIdentifier) }.count
    }

    func upsertReport(_ report: WeeklyReportInput, patient: String, source: String,
                      now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        try refuseErased(patient)
        return changing(patient, now: now) {
            let key = ModelState.Key(patient: patient, source: source, syncIdentifier: report.syncIdentifier)
            let stored = state.reports[key].map { StoredReportState(syncVersion: $0.syncVersion, samples: state.samples(of: $0, key: key)) }
            let plan = WeeklyReportPlanner.plan(stored: stored, input: report)
            if plan.outcome != .ignored {
                for action in plan.actions {
                    switch action {
                    case .keep: break
                    case let .delete(_, old): state.tombstone(old.uuid, patient: patient, now: now)
                    case let .replace(_, old, new):
                        state.tombstone(old.uuid, patient: patient, now: now)
                        state.insert(Self.sample(new, uuid: freshUUID(patient), source: source), patient: patient)
                    case let .insert(_, new):
                        // A sample posted directly under the derived identifier gives way to the report.
                        if let squatter = state.sample(patient: patient, source: source, syncIdentifier: new.syncIdentifier!) {
                            state.tombstone(squatter.uuid, patient: patient, now: now)
                        }
                        state.insert(Self.sample(new, uuid: freshUUID(patient), source: source), patient: patient)
                    }
                }
                state.reports[key] = ModelState.Report(syncVersion: report.syncVersion, weekStart: report.weekStart,
                                                       timeZone: report.timeZone, keys: report.samples.map(\.key), updatedAt: now)
            }
            let outcome = WeeklyReportUpsertResult.Outcome(rawValue: plan.outcome.rawValue)!
            return (outcome, state.weeklyReport(state.reports[key]!, key: key))
        }
    }

    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool {
        changing(patient, now: now) {
            let key = ModelState.Key(patient: patient, source: source, syncIdentifier: syncIdentifier)
            guard let report = state.reports.removeValue(forKey: key) else { return false }
            let samples = state.samples(of: report, key: key)
            for item in samples.keys.sorted() { state.tombstone(samples[item]!.uuid, patient: patient, now: now) }
            return true
        }
    }

    func headAnchor() throws -> Anchor { state.headAnchor(storeID) }

    func appendAudit(_ record: AuditRecord) throws { audit.append(record) }

    /// A stored sample from an input: the given uuid and source, canonical values (every component of a correlation) as they came.
    static func sample(_ input: SampleInput, uuid: UUID, source: String) -> Sample {
        Sample(uuid: uuid, type: input.type, value: input.value, secondValue: input.secondValue, components: input.components,
               start: input.start, end: input.end,
               syncIdentifier: input.syncIdentifier, syncVersion: input.syncVersion, source: source, metadata: input.metadata)
    }
}
