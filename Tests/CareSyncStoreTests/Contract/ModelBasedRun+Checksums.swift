import CareSyncCore
import Foundation

extension ModelBasedRun {
    /// The store's checksums as of `anchor` equal the figures of `samples` (model uuids), the replica a reader
    /// that followed the feed to `anchor` holds: per type, the count and the digest sum over the store's uuids.
    func checkChecksums(patient: String, samples: [UUID: Sample], at anchor: Anchor) throws {
        let stored: ReplicaChecksums
        do {
            stored = try store.checksums(patient: patient, at: anchor)
        } catch SyncError.anchorExpired {
            return  // below the purge horizon: the figures then are gone, and the store says so
        }
        var expected: [SampleType: TypeChecksum] = [:]
        for sample in samples.values {
            guard let uuid = modelToStore[sample.uuid] else { throw Divergence(description: "no store uuid for \(sample.uuid)") }
            expected[sample.type, default: TypeChecksum()].add(SampleDigest.of(uuid: uuid, syncVersion: sample.syncVersion))
        }
        guard stored.types == expected, stored.anchor.sequence == anchor.sequence else {
            throw Divergence(description: "\(patient) checksums at \(anchor.sequence): store \(stored.types), replica \(expected)")
        }
    }
}
