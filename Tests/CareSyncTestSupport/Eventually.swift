/// Polling with a deadline: a condition that never comes true fails the test instead of hanging it.
public enum Eventually {
    /// The condition was still false at the deadline.
    public struct TimedOut: Error, CustomStringConvertible {
        /// Where the wait was.
        public let location: String
        /// What the failure says.
        public var description: String { "condition still false at the deadline (\(location))" }
    }

    /// Checks `condition` every millisecond until it holds; throws `TimedOut` once the waiter has been awake for
    /// `deadline`. Time the waiter spent unscheduled (a starved cooperative pool on a loaded machine) beyond
    /// `starvation` per poll is not counted, so the work it waits for gets the time the waiter did.
    public static func until(deadline: Duration = .seconds(10), starvation: Duration = .milliseconds(250),
                             fileID: String = #fileID, line: Int = #line,
                             _ condition: () throws -> Bool) async throws {
        var end = ContinuousClock.now + deadline
        while try !condition() {
            let beforeSleep = ContinuousClock.now
            guard beforeSleep < end else { throw TimedOut(location: "\(fileID):\(line)") }
            try await Task.sleep(for: .milliseconds(1))
            let slept = beforeSleep.duration(to: .now)
            if slept > starvation { end += slept - starvation }
        }
    }
}
