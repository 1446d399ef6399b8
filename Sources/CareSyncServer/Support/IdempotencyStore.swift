import Foundation

/// A stored answer to a POST that carried an `Idempotency-Key`.
public struct IdempotentReply: Hashable, Sendable {
    /// SHA-256 of method, path and body of the first request.
    public var requestHash: [UInt8]
    /// The status of the first answer.
    public var status: Int
    /// The body of the first answer.
    public var body: [UInt8]
    /// When it may be forgotten.
    public var expiresAt: Date
    /// A stored answer.
    public init(requestHash: [UInt8], status: Int, body: [UInt8], expiresAt: Date) {
        self.requestHash = requestHash; self.status = status; self.body = body; self.expiresAt = expiresAt
    }
}

/// Where idempotent replies are kept, keyed by token id and key. Blocking and thread-safe.
public protocol IdempotencyStore: Sendable {
    /// The unexpired reply for the key, or nil.
    func reply(tokenID: String, key: String, now: Date) throws -> IdempotentReply?
    /// Saves a reply (the first one wins).
    func save(tokenID: String, key: String, reply: IdempotentReply) throws
    /// Drops expired replies.
    func purge(now: Date) throws
}

/// Idempotent replies in memory.
public final class InMemoryIdempotencyStore: IdempotencyStore {
    private let state = Locked([String: IdempotentReply]())
    /// An empty store.
    public init() {}
    public func reply(tokenID: String, key: String, now: Date) throws -> IdempotentReply? {
        state.withLock { s in s["\(tokenID)\u{0}\(key)"].flatMap { $0.expiresAt > now ? $0 : nil } }
    }
    public func save(tokenID: String, key: String, reply: IdempotentReply) throws {
        state.withLock { s in if s["\(tokenID)\u{0}\(key)"] == nil { s["\(tokenID)\u{0}\(key)"] = reply } }
    }
    public func purge(now: Date) throws { state.withLock { s in s = s.filter { $0.value.expiresAt > now } } }
}
