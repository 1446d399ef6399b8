#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock the thread sanitizer understands: the project's one lock box, for state threads hand to
/// each other (the HTTP loops, the server's jobs and limits, the stores, the tests).
///
/// Synchronization's `Mutex` parks a contended thread with a priority-inheriting futex inside the uninstrumented
/// runtime, so ThreadSanitizer never sees that hand-over and reports the state it protects as racing (its fast path
/// is seen; only contention goes unseen). This lock is a plain pthread mutex, whose calls the sanitizer intercepts.
/// `withLock` inlines into its caller, as `Mutex`'s does: one uncontended lock costs a call to
/// `pthread_mutex_lock` and one to `pthread_mutex_unlock`.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is reached only inside `withLock`, while `mutex` is held. The mutex has an address of its
    // own (a pthread mutex must not move, and a stored property's address is not stable).
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    /// Holds `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value while holding the lock.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
