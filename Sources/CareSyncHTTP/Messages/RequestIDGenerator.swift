import Foundation
import Synchronization

/// Makes short unique request ids: a random per-process prefix and a counter.
public final class RequestIDGenerator: Sendable {
    /// The process-wide generator.
    public static let shared = RequestIDGenerator()
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    /// Creates a generator with a fresh random prefix.
    public init() {
        prefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    /// The next id, e.g. "9f3a1c2e-42".
    public func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + String(n, radix: 16)
    }
}
