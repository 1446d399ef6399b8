import CareSyncLocking

/// The one lock box of the tests: a value shared between a test and the threads or tasks it starts.
/// Over `Locked` (CareSyncLocking), the lock the sources use, so the thread sanitizer sees its hand-over too.
public final class Shared<Value: Sendable>: Sendable {
    private let locked: Locked<Value>
    /// Holds `initial`.
    public init(_ initial: Value) { locked = Locked(initial) }
    /// The value now.
    public var current: Value { update { $0 } }
    /// Replaces the value.
    public func set(_ new: Value) { update { $0 = new } }
    /// Changes the value in place and returns what `body` returns, atomically.
    @discardableResult
    public func update<T: Sendable>(_ body: (inout Value) -> T) -> T {
        locked.withLock(body)
    }
}
