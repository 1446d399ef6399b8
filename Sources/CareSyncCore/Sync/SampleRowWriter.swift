import Foundation

/// The sample rows a store's write transaction reads and writes. The loops that apply the sync rules over them
/// (`applyUpsert`, `applyDelete`, `applyReportActions`) are written once here, so every store makes the same
/// decisions (`SyncRules`, `WeeklyReportPlanner`) in the same order.
public protocol SampleRowWriter {
    /// What the store holds under a uuid for `patient`: a live sample, a tombstone, or nothing. Uuids are unique per
    /// patient: another patient's samples are never looked at, so no answer tells that a uuid is used elsewhere.
    func existing(uuid: UUID, patient: String) throws -> ExistingUUID
    /// The live sample of (patient, source, syncIdentifier), if any.
    func liveSample(patient: String, source: String, syncIdentifier: String) throws -> Sample?
    /// Stores `input` as a new live sample (the client's uuid, else a new one) under the next sequence; returns its uuid.
    @discardableResult
    func insert(_ input: SampleInput, patient: String, source: String) throws -> UUID
    /// Removes a live sample and leaves its tombstone, under the next sequence.
    func tombstone(_ sample: Sample, patient: String, now: Date) throws
    /// Throws `ErasedPatientWrite` when `patient` was erased: nothing is written under an erased id again, also by a
    /// request whose reach was proved before the erasure (docs/security.md, "Erasure").
    func refuseErased(_ patient: String) throws
}

extension SampleRowWriter {
    /// HealthKit's upsert for a batch, in order; throws `SyncError.conflict` (the caller's transaction rolls back).
    public func applyUpsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult] {
        try refuseErased(patient)
        var results: [UpsertItemResult] = []
        results.reserveCapacity(samples.count)
        for (index, input) in samples.enumerated() {
            let byUUID = try input.uuid.map { try existing(uuid: $0, patient: patient) } ?? .unknown
            let byKey = try input.syncIdentifier.map { try liveSample(patient: patient, source: source, syncIdentifier: $0) } ?? nil
            switch SyncRules.upsertDecision(incoming: input, patient: patient, source: source, byUUID: byUUID, byKey: byKey) {
            case .insert:
                let uuid = try insert(input, patient: patient, source: source)
                results.append(UpsertItemResult(index: index, uuid: uuid, outcome: .inserted))
            case .replace(let old):
                try tombstone(old, patient: patient, now: now)
                let uuid = try insert(input, patient: patient, source: source)
                results.append(UpsertItemResult(index: index, uuid: uuid, outcome: .replaced))
            case .ignore(let reason, let existing):
                results.append(UpsertItemResult(index: index, uuid: existing, outcome: .ignored(reason)))
            case .conflict(let message):
                throw SyncError.conflict("samples[\(index)]: \(message)")
            }
        }
        return results
    }

    /// Deletes the caller's own samples by uuid, then by sync identifier; each deletion leaves a tombstone.
    public func applyDelete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String,
                            now: Date) throws -> [DeleteItemResult] {
        try refuseErased(patient)
        var results: [DeleteItemResult] = []
        for uuid in uuids {
            guard case .live(let sample, let owner) = try existing(uuid: uuid, patient: patient), owner == patient else {
                results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .notFound)); continue
            }
            guard sample.source == source else {
                // The type goes with it, so the caller can answer `notFound` for a type it may not read.
                results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .notOwned, type: sample.type)); continue
            }
            try tombstone(sample, patient: patient, now: now)
            results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .deleted, type: sample.type))
        }
        for identifier in syncIdentifiers {
            guard let sample = try liveSample(patient: patient, source: source, syncIdentifier: identifier) else {
                results.append(DeleteItemResult(uuid: nil, syncIdentifier: identifier, outcome: .notFound)); continue
            }
            try tombstone(sample, patient: patient, now: now)
            results.append(DeleteItemResult(uuid: sample.uuid, syncIdentifier: identifier, outcome: .deleted, type: sample.type))
        }
        return results
    }

    /// Carries out a report plan's actions (`WeeklyReportPlanner`), in order.
    public func applyReportActions(_ actions: [ReportSampleAction], patient: String, source: String, now: Date) throws {
        try refuseErased(patient)
        for action in actions {
            switch action {
            case .keep:
                continue
            case let .replace(_, old, new):
                try tombstone(old, patient: patient, now: now)
                try insert(new, patient: patient, source: source)
            case let .insert(_, new):
                // A sample posted directly under the derived identifier gives way to the report (as the model).
                if let id = new.syncIdentifier, let squatter = try liveSample(patient: patient, source: source, syncIdentifier: id) {
                    try tombstone(squatter, patient: patient, now: now)
                }
                try insert(new, patient: patient, source: source)
            case let .delete(_, old):
                try tombstone(old, patient: patient, now: now)
            }
        }
    }
}
