import Foundation

/// An `Idempotency-Key` as the store keys it: the caller's scope (e.g. its token id) and the key it sent.
public struct IdempotencyKey: Hashable, Sendable {
    /// Who sent the key; keys of different callers never collide.
    public var scope: String
    /// The header value.
    public var key: String
    /// A key in a scope.
    public init(scope: String, key: String) { self.scope = scope; self.key = key }
}

/// The first answer to a keyed request, kept until `expiresAt`.
public struct IdempotencyRecord: Hashable, Sendable {
    /// A hash of the request (method, path, body) the answer belongs to.
    public var requestHash: [UInt8]
    /// The HTTP status of the first answer.
    public var status: Int
    /// The first answer's body bytes.
    public var response: [UInt8]
    /// When it was stored.
    public var createdAt: Date
    /// When it may be forgotten.
    public var expiresAt: Date
    /// A record.
    public init(requestHash: [UInt8], status: Int, response: [UInt8], createdAt: Date, expiresAt: Date) {
        self.requestHash = requestHash; self.status = status; self.response = response
        self.createdAt = createdAt; self.expiresAt = expiresAt
    }
}

/// What a keyed write did.
public enum IdempotentWriteResult<Value> {
    /// First time: the write ran and its answer was recorded in the same transaction.
    case performed(Value)
    /// A retry of the same request: nothing ran; answer with the recorded bytes.
    case replayed(IdempotencyRecord)
    /// The key was used before for a different request: nothing ran (422).
    case keyReused
}

extension IdempotentWriteResult: Sendable where Value: Sendable {}
