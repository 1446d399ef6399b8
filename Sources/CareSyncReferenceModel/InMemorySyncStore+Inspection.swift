import CareSyncCore
import Foundation

extension InMemorySyncStore {
    /// The live samples and kept tombstones of `patient`.
    public func snapshot(patient: String) -> ModelSnapshot {
        read { state in
            ModelSnapshot(samples: Dictionary(uniqueKeysWithValues: state.live.filter { $0.key.patient == patient }.map { ($0.key.uuid, $0.value.sample) }),
                          deletedObjects: Dictionary(uniqueKeysWithValues: state.tombstones.filter { $0.key.patient == patient }
                              .map { ($0.key.uuid, $0.value.object) }))
        }
    }

    /// Every live sample with its patient (all patients), in uuid string order.
    public func liveSamples() -> [(patient: String, sample: Sample)] {
        read { state in
            state.live.values.sorted { ($0.sample.uuid.uuidString, $0.patient) < ($1.sample.uuid.uuidString, $1.patient) }.map { ($0.patient, $0.sample) }
        }
    }

    /// How many live samples the store holds (all patients).
    public var liveCount: Int { read { $0.live.count } }

    /// The sequence below which anchors are expired.
    public var purgeHorizon: Int64 { read { $0.purgeHorizon } }
}
