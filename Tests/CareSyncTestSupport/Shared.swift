import Foundation

/// The one lock box of the tests: a value shared between a test and the threads or tasks it starts.
/// A pthread mutex (`NSLock`), not Synchronization's `Mutex`: the thread sanitizer sees its hand-over under contention.
public final class Shared<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is reached only while `lock` is held.
    private let lock = NSLock()
    private var value: Value
    /// Holds `initial`.
    public init(_ initial: Value) { value = initial }
    /// The value now.
    public var current: Value { update { $0 } }
    /// Replaces the value.
    public func set(_ new: Value) { update { $0 = new } }
    /// Changes the value in place and returns what `body` returns, atomically.
    @discardableResult
    public func update<T: Sendable>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
