import Foundation

/// A value guarded by a lock, for state shared across threads and tasks.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    /// Wraps an initial value.
    public init(_ value: Value) { self.value = value }
    /// Runs `body` with exclusive access to the value.
    @discardableResult
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
