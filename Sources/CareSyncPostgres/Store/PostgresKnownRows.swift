import CareSyncCore
import Foundation

/// What a writer read ahead for a batch (every item's uuid and key in two statements) and has not written
/// since: a write forgets the entries it touches, so whatever is still here is what the database holds.
struct PostgresKnownRows {
    /// HealthKit's key of a live sample.
    struct Key: Hashable {
        let patient: String
        let source: String
        let syncIdentifier: String
    }

    /// A uuid within its patient (uuids are unique per patient).
    struct SampleID: Hashable {
        let patient: String
        let uuid: UUID
    }

    /// What the store holds under a patient's uuid (`.unknown` included).
    var byUUID: [SampleID: ExistingUUID] = [:]
    /// The live sample of a key, `.some(nil)` when there is none.
    var byKey: [Key: Sample?] = [:]

    /// Forgets what a write to `id` (and to `key`) changes.
    mutating func forget(_ id: SampleID, key: Key?) {
        byUUID[id] = nil
        if let key { byKey[key] = nil }
    }
}
