import Foundation

/// A value behind a lock the thread sanitizer understands, for state that threads hand to each other under contention.
///
/// Synchronization's `Mutex` parks a contended thread with a priority-inheriting futex inside the uninstrumented
/// runtime, so ThreadSanitizer never sees that hand-over and reports the state it protects as racing (its fast path
/// is seen; only contention goes unseen). This lock is a pthread mutex (`NSLock`), whose calls the sanitizer intercepts.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is reached only inside `withLock`, while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// Holds `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value while holding the lock.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try _withLock(body)
    }

    /// The locked access itself.
    @usableFromInline
    func _withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
