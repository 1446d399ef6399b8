import CareSyncCore
import Foundation
import Synchronization
@testable import CareSyncServer

/// A clock a test moves by hand, for `AlertEvaluationJob`.
final class AlertTestClock: Sendable {
    private let now: Mutex<Date>
    /// A clock at `start`.
    init(_ start: Date = Date()) { now = Mutex(start) }
    /// The time now.
    var read: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
    /// Moves it forward.
    func advance(hours: Double) { now.withLock { $0 = $0.addingTimeInterval(hours * 3600) } }
}

extension CareSyncApplication {
    /// An alert job over this server's stores reading `clock`, with no notifier (the test calls `runAll`/`runChanged`).
    func makeAlertJob(clock: AlertTestClock) -> AlertEvaluationJob {
        AlertEvaluationJob(evaluator: AlertEvaluator(store: backend.sync, access: backend.access, monitoring: backend.monitoring,
                                                     alerts: backend.alerts),
                           leases: backend.sync, notifier: nil, clock: clock.read)
    }
}
