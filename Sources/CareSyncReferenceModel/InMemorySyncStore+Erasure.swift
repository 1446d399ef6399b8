import CareSyncCore
import Foundation

extension InMemorySyncStore {
    /// Whether the id was erased (its writes are refused).
    func wasErased(_ patient: String) -> Bool { read { $0.erased.contains(patient) } }

    /// Remembers the id as erased (its writes are refused from now on) and removes the patient's samples, tombstones,
    /// change-log entries, reports, kept answers (those about the patient, and those of `tokens`) and outbox entries;
    /// their counts, as the erasure's receipt names them.
    func erase(patient: String, tokens: [String]) -> [ErasedCount] {
        withState { state in
            state.erased.insert(patient)
            let samples = state.live.keys.filter { $0.patient == patient }
            let tombstones = state.tombstones.keys.filter { $0.patient == patient }
            for id in samples { state.live[id] = nil }
            for id in tombstones { state.tombstones[id] = nil }
            for sequence in state.patientLog.removeValue(forKey: patient) ?? [] { state.log[Int(sequence - 1)] = nil }
            state.byKey = state.byKey.filter { $0.key.patient != patient }
            let reports = state.reports.keys.filter { $0.patient == patient }
            for key in reports { state.reports[key] = nil }
            let scopes = Set(tokens)
            let answers = state.idempotency.keys.filter { state.idempotencyPatients[$0] == patient || scopes.contains($0.scope) }
            for key in answers { state.idempotency[key] = nil; state.idempotencyPatients[key] = nil }
            let outbox = state.outbox.count
            state.outbox.removeAll { $0.patient == patient }
            return [ErasedCount(kind: "samples", count: samples.count), ErasedCount(kind: "tombstones", count: tombstones.count),
                    ErasedCount(kind: "reports", count: reports.count), ErasedCount(kind: "idempotencyRecords", count: answers.count),
                    ErasedCount(kind: "webhookOutbox", count: outbox - state.outbox.count)]
        }
    }
}
