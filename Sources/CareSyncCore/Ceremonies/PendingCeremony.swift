import Foundation

/// A sign-in step begun on one server instance that any instance over the same database may finish: a passkey
/// challenge or an OpenID Connect sign-in at the provider. Stored under the SHA-256 of its handle (the challenge, the
/// `state`), so the store never holds the handle itself; taken at most once; dead after `expiresAt`.
public struct PendingCeremony: Sendable, Equatable {
    /// Which ceremony: each kind has its own keys and its own bound on how many may be pending.
    public enum Kind: String, Sendable, CaseIterable {
        /// A WebAuthn registration or sign-in challenge.
        case passkey
        /// An OpenID Connect authorization request awaiting its callback.
        case openIDConnect = "oidc"
    }

    /// Which ceremony this is.
    public var kind: Kind
    /// SHA-256 of the ceremony's handle.
    public var key: [UInt8]
    /// What finishing needs, in the kind's own encoding (no secret: hashes, or values the client sees anyway).
    public var payload: [UInt8]
    /// When it stops being accepted (stored to the millisecond).
    public var expiresAt: Date

    /// A pending ceremony of `kind` under `key`.
    public init(kind: Kind, key: [UInt8], payload: [UInt8], expiresAt: Date) {
        self.kind = kind; self.key = key; self.payload = payload; self.expiresAt = expiresAt
    }
}
