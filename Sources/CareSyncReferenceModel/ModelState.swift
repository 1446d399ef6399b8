import CareSyncCore
import Foundation

/// The whole state of the reference model: plain collections, mutated only under the store's lock.
///
/// The change log is an array indexed by sequence - 1. Each uuid of a patient (uuids are unique per patient) has at
/// most one live entry: its insert while live, its tombstone once deleted (the insert slot is cleared), so the feed
/// naturally shows a sample added and deleted after an anchor only as a deleted object.
struct ModelState: Sendable {
    /// A live sample with its patient and the sequence of its insert.
    struct Live: Sendable, Hashable { var sample: Sample; var patient: String; var sequence: Int64 }
    /// A kept tombstone with its patient, the sequence of its deletion and that of its sample's insert.
    struct Tomb: Sendable, Hashable { var object: DeletedObject; var patient: String; var sequence: Int64; var inserted: Int64 }
    /// What a change log slot points at.
    enum Slot: Sendable, Hashable { case sample(UUID), tombstone(UUID) }
    /// A sample's uuid within its patient: uuids are unique per patient, never across patients.
    struct SampleID: Hashable, Sendable { var patient: String; var uuid: UUID }
    /// The key of a sample with a sync identifier.
    struct Key: Hashable, Sendable { var patient: String; var source: String; var syncIdentifier: String }
    /// A stored weekly report: its current version's fields and keys.
    struct Report: Sendable, Hashable {
        var syncVersion: Int64
        var weekStart: CalendarDay
        var timeZone: String
        var keys: [String]
        var updatedAt: Date
    }

    /// The last sequence handed out (0: none yet).
    var head: Int64 = 0
    /// Anchors below this sequence may have missed a purged tombstone.
    var purgeHorizon: Int64 = 0
    /// Slot `i` holds the entry with sequence `i + 1`, or nil once superseded or purged.
    var log: [Slot?] = []
    /// Each patient's sequences in order (some slots since cleared), so a page skips other patients.
    var patientLog: [String: [Int64]] = [:]
    var live: [SampleID: Live] = [:]
    var tombstones: [SampleID: Tomb] = [:]
    var byKey: [Key: UUID] = [:]
    var reports: [Key: Report] = [:]
    var idempotency: [IdempotencyKey: IdempotencyRecord] = [:]
    /// The patient each kept answer is about (an erasure removes them).
    var idempotencyPatients: [IdempotencyKey: String] = [:]
    /// Ids erased (`InMemorySyncStore.erase`): writes for them are refused.
    var erased: Set<String> = []
    /// Webhook outbox entries not yet fanned out, oldest first.
    var outbox: [OutboxEntry] = []
    /// The highest outbox id handed out.
    var outboxHead: Int64 = 0
    /// The commit times (`WriteTimes`), in position order.
    var commitTimes: [CommitTime] = []
    /// Webhook subscriptions that exist: with none, commits record no outbox entry.
    var subscriptions = 0

    /// Takes the next sequence and records what it points at.
    mutating func append(_ slot: Slot, patient: String) -> Int64 {
        head += 1
        log.append(slot)
        patientLog[patient, default: []].append(head)
        return head
    }

    /// Records the outbox entries of a commit that changed `patients`, at the current head.
    mutating func recordOutbox(_ patients: Set<String>, storeID: String, now: Date) {
        guard subscriptions > 0 else { return }
        let anchor = headAnchor(storeID).encoded
        for patient in patients.sorted() {
            outboxHead += 1
            outbox.append(OutboxEntry(id: outboxHead, patient: patient, sequence: head, anchor: anchor, time: now))
        }
    }

    /// Stores a new sample for `patient`.
    mutating func insert(_ sample: Sample, patient: String) {
        let sequence = append(.sample(sample.uuid), patient: patient)
        live[SampleID(patient: patient, uuid: sample.uuid)] = Live(sample: sample, patient: patient, sequence: sequence)
        if let id = sample.syncIdentifier {
            byKey[Key(patient: patient, source: sample.source, syncIdentifier: id)] = sample.uuid
        }
    }

    /// Deletes a live sample, leaving a tombstone that takes the next sequence.
    mutating func tombstone(_ uuid: UUID, patient: String, now: Date) {
        guard let entry = live.removeValue(forKey: SampleID(patient: patient, uuid: uuid)) else { preconditionFailure("tombstone of a sample not live") }
        log[Int(entry.sequence - 1)] = nil
        let sample = entry.sample
        if let id = sample.syncIdentifier {
            byKey[Key(patient: entry.patient, source: sample.source, syncIdentifier: id)] = nil
        }
        let object = DeletedObject(uuid: uuid, type: sample.type, syncIdentifier: sample.syncIdentifier,
                                   syncVersion: sample.syncVersion, source: sample.source,
                                   start: sample.start, end: sample.end, deletedAt: now)
        let sequence = append(.tombstone(uuid), patient: entry.patient)
        tombstones[SampleID(patient: patient, uuid: uuid)] = Tomb(object: object, patient: entry.patient, sequence: sequence, inserted: entry.sequence)
    }

    /// The live sample under a key, if any.
    func sample(patient: String, source: String, syncIdentifier: String) -> Sample? {
        byKey[Key(patient: patient, source: source, syncIdentifier: syncIdentifier)].flatMap { live[SampleID(patient: patient, uuid: $0)]?.sample }
    }

    /// What the store knows under a client's uuid for `patient` (another patient's uuids are not looked at).
    func existing(_ uuid: UUID?, patient: String) -> ExistingUUID {
        guard let uuid else { return .unknown }
        let id = SampleID(patient: patient, uuid: uuid)
        if let entry = live[id] { return .live(entry.sample, patient: entry.patient) }
        return tombstones[id] == nil ? .unknown : .deleted
    }

    /// A report's live samples by key.
    func samples(of report: Report, key: Key) -> [String: Sample] {
        var samples: [String: Sample] = [:]
        for item in report.keys {
            let id = SyncRules.derivedSyncIdentifier(report: key.syncIdentifier, key: item)
            if let sample = sample(patient: key.patient, source: key.source, syncIdentifier: id) { samples[item] = sample }
        }
        return samples
    }

    /// The public form of a stored report.
    func weeklyReport(_ report: Report, key: Key) -> WeeklyReport {
        WeeklyReport(syncIdentifier: key.syncIdentifier, syncVersion: report.syncVersion, weekStart: report.weekStart,
                     timeZone: report.timeZone, source: key.source, samples: samples(of: report, key: key),
                     updatedAt: report.updatedAt)
    }
}
