import Crypto
import Foundation

/// A ceremony as `takeCeremony(_:kind:handle:at:)` found it.
public enum TakenCeremony<Value> {
    /// Never stored, taken already, or unreadable.
    case unknown
    /// Stored, but its lifetime is over (it is gone now too).
    case expired
    /// Stored and within its lifetime.
    case live(Value)
}

extension PendingCeremonyStore {
    /// Stores `value` (as JSON) as a ceremony of `kind` under the SHA-256 of `handle`, until `expiresAt`; false when
    /// `capacity` of its kind are pending at `now`.
    public func insertCeremony<Value: Encodable>(_ value: Value, kind: PendingCeremony.Kind, handle: [UInt8], expiresAt: Date,
                                                 capacity: Int, at now: Date) throws -> Bool {
        let ceremony = PendingCeremony(kind: kind, key: Self.key(handle), payload: Array(try JSONEncoder().encode(value)),
                                       expiresAt: expiresAt)
        return try insertCeremony(ceremony, capacity: capacity, at: now)
    }

    /// Takes the ceremony of `kind` whose handle is `handle`; its expiry is compared with `now` at the store's precision
    /// (whole milliseconds).
    public func takeCeremony<Value: Decodable>(_ type: Value.Type, kind: PendingCeremony.Kind, handle: [UInt8],
                                               at now: Date) throws -> TakenCeremony<Value> {
        guard let found = try takeCeremony(kind: kind, key: Self.key(handle)) else { return .unknown }
        guard SyncRules.milliseconds(now) < SyncRules.milliseconds(found.expiresAt) else { return .expired }
        guard let value = try? JSONDecoder().decode(type, from: Data(found.payload)) else { return .unknown }
        return .live(value)
    }

    /// The key a handle is stored under: its SHA-256, so the store never holds the handle.
    private static func key(_ handle: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: handle)) }
}
