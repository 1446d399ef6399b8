/// Polling with a deadline: a condition that never comes true fails the test instead of hanging it.
public enum Eventually {
    /// The condition was still false at the deadline.
    public struct TimedOut: Error, CustomStringConvertible {
        /// Where the wait was.
        public let location: String
        /// What the failure says.
        public var description: String { "condition still false at the deadline (\(location))" }
    }

    /// Checks `condition` every millisecond until it holds; throws `TimedOut` after `deadline`.
    public static func until(deadline: Duration = .seconds(10), fileID: String = #fileID, line: Int = #line,
                             _ condition: () throws -> Bool) async throws {
        let end = ContinuousClock.now + deadline
        while try !condition() {
            guard ContinuousClock.now < end else { throw TimedOut(location: "\(fileID):\(line)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
