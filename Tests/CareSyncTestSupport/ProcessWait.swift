import Foundation

extension Process {
    /// Waits for the process to exit on a thread of its own, never on the cooperative pool that in-process servers
    /// of parallel tests answer on.
    public func exited() async throws {
        nonisolated(unsafe) let process = self
        try await onDedicatedThread { process.waitUntilExit() }
    }
}
