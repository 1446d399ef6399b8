import CareSyncCore

extension InMemorySyncStore {
    /// The samples live at `anchor`, counted by scanning: those inserted by then and still live, and those
    /// deleted since whose insert came by then. (The oracle may scan; the stores keep running sums.)
    public func checksums(patient: String, at anchor: Anchor?) throws -> ReplicaChecksums {
        try read { state in
            let at: Anchor
            if let anchor {
                try anchor.validate(storeID: storeID, head: state.head, storeHorizon: state.purgeHorizon)
                // Below the horizon, deletions since may be purged: the figures then cannot be known.
                guard anchor.sequence >= state.purgeHorizon else { throw SyncError.anchorExpired }
                at = anchor
            } else {
                at = state.headAnchor(storeID)
            }
            var types: [SampleType: TypeChecksum] = [:]
            for entry in state.live.values where entry.patient == patient && entry.sequence <= at.sequence {
                types[entry.sample.type, default: TypeChecksum()].add(
                    SampleDigest.of(uuid: entry.sample.uuid, syncVersion: entry.sample.syncVersion))
            }
            for tomb in state.tombstones.values
            where tomb.patient == patient && tomb.sequence > at.sequence && tomb.inserted <= at.sequence {
                types[tomb.object.type, default: TypeChecksum()].add(
                    SampleDigest.of(uuid: tomb.object.uuid, syncVersion: tomb.object.syncVersion))
            }
            return ReplicaChecksums(anchor: at, types: types)
        }
    }
}
