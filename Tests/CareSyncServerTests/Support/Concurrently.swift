import CareSyncTestSupport

/// Requests sent at once, for the tests of concurrent retries.
enum Concurrently {
    /// Runs `send(0)` … `send(count - 1)` at once; returns their replies as they come.
    static func replies(_ count: Int, _ send: @escaping @Sendable (Int) async throws -> TestReply) async throws -> [TestReply] {
        try await withThrowingTaskGroup(of: TestReply.self) { group in
            for index in 0..<count { group.addTask { try await send(index) } }
            return try await group.reduce(into: [TestReply]()) { $0.append($1) }
        }
    }
}
