import Foundation
import Synchronization

/// The API's clock, set by hand: the `now` of each write, so each commit's write time is the test's.
final class WriteTimeTestClock: Sendable {
    private let now: Mutex<Date>
    /// A clock at `start`.
    init(_ start: Date) { now = Mutex(start) }
    /// The time now.
    var read: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
    /// Sets the time.
    func set(_ date: Date) { now.withLock { $0 = date } }
}
