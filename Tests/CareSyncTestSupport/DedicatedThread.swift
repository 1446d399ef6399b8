import Foundation

/// Runs blocking test work (sockets, child processes, long synchronous checks) on a thread of its own, so it never holds one of the few
/// cooperative-pool threads that in-process servers of other, parallel tests answer on.
public func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
