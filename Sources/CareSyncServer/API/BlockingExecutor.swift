import Foundation

/// Runs blocking work (SQLite calls) on dispatch threads so it never occupies the cooperative pool.
public struct BlockingExecutor: Sendable {
    private let queue: DispatchQueue

    /// An executor over a concurrent queue with the given label.
    public init(label: String = "caresync.store") {
        queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
    }

    /// Runs `body` on the queue and resumes the caller with its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
