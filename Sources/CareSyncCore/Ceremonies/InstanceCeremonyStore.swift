import CareSyncLocking
import Foundation

/// Pending ceremonies in this process's memory: for a server built without a database store (tests, tools) and
/// the oracle the store contract holds the databases to. A ceremony must then finish on the instance that began it.
public final class InstanceCeremonyStore: PendingCeremonyStore {
    private struct Key: Hashable { let kind: PendingCeremony.Kind; let key: [UInt8] }
    private let pending = Locked<[Key: PendingCeremony]>([:])

    /// An empty store.
    public init() {}

    public func insertCeremony(_ ceremony: PendingCeremony, capacity: Int, at now: Date) throws -> Bool {
        var stored = ceremony
        stored.expiresAt = SyncRules.date(milliseconds: SyncRules.milliseconds(ceremony.expiresAt))
        let nowMS = SyncRules.milliseconds(now)
        return try pending.withLock { all in
            all = all.filter { $0.key.kind != ceremony.kind || SyncRules.milliseconds($0.value.expiresAt) > nowMS }
            let key = Key(kind: ceremony.kind, key: ceremony.key)
            guard all.keys.filter({ $0.kind == ceremony.kind }).count < capacity else { return false }
            guard all[key] == nil else { throw PendingCeremonyStoreError.alreadyExists }
            all[key] = stored
            return true
        }
    }

    public func takeCeremony(kind: PendingCeremony.Kind, key: [UInt8]) throws -> PendingCeremony? {
        pending.withLock { $0.removeValue(forKey: Key(kind: kind, key: key)) }
    }

    public func ceremonyCount(kind: PendingCeremony.Kind) throws -> Int {
        pending.withLock { all in all.keys.filter { $0.kind == kind }.count }
    }
}

/// Why a pending ceremony was not stored.
public enum PendingCeremonyStoreError: Error, Equatable {
    /// A ceremony of the same kind is stored under the same key.
    case alreadyExists
}
