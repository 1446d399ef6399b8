import Foundation

/// Pending sign-in ceremonies, in the database every instance shares, so a ceremony begun on one instance can finish
/// on another (no session affinity behind a load balancer) and survives a restart. Methods are blocking and
/// thread-safe.
public protocol PendingCeremonyStore: Sendable {
    /// Deletes the ceremonies of `ceremony.kind` expired at `now`, then stores `ceremony` unless `capacity` of its kind
    /// are still pending (false then, nothing stored). Throws when its kind and key are taken.
    func insertCeremony(_ ceremony: PendingCeremony, capacity: Int, at now: Date) throws -> Bool
    /// Deletes and returns the ceremony of `kind` stored under `key`, expired or not (the caller tells which); nil
    /// when there is none. Of two concurrent takes of one key, exactly one gets it.
    func takeCeremony(kind: PendingCeremony.Kind, key: [UInt8]) throws -> PendingCeremony?
    /// How many ceremonies of `kind` are stored (expired ones until an insert of their kind deletes them).
    func ceremonyCount(kind: PendingCeremony.Kind) throws -> Int
}
