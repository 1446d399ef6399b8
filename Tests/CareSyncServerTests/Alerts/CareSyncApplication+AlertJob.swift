import CareSyncCore
import CareSyncTestSupport
@testable import CareSyncServer

extension CareSyncApplication {
    /// An alert job over this server's stores reading `clock`, with no notifier (the test calls `runAll`/`runChanged`).
    func makeAlertJob(clock: ManualClock) -> AlertEvaluationJob {
        AlertEvaluationJob(evaluator: AlertEvaluator(store: backend.sync, access: backend.access, monitoring: backend.monitoring,
                                                     alerts: backend.alerts),
                           leases: backend.sync, notifier: nil, clock: clock.serverClock)
    }
}
