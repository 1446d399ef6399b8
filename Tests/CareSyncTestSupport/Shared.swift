import Synchronization

/// The one lock box of the tests: a value shared between a test and the threads or tasks it starts.
public final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    /// Holds `initial`.
    public init(_ initial: Value) { value = Mutex(initial) }
    /// The value now.
    public var current: Value { value.withLock { $0 } }
    /// Replaces the value.
    public func set(_ new: Value) { value.withLock { $0 = new } }
    /// Changes the value in place and returns what `body` returns, atomically.
    @discardableResult
    public func update<T: Sendable>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}
