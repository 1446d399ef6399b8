import CareSyncCore
import CareSyncLocking
import Foundation
import Logging

/// The alert evaluation job (docs/alerts.md): evaluates the patients whose writes committed (the store's `ChangeNotifier`
/// signals every commit, other PostgreSQL instances' included) at most every `changeSpacing`, and every patient of every
/// care team every `interval` (a silence needs time passing, not a write). It runs only while its instance holds the
/// `LeasedJob.alerts` lease: one evaluation per database, however many instances. `clock` times the runs and the rules.
public final class AlertEvaluationJob: Sendable {
    /// Time between two evaluations of every patient.
    public let interval: Duration
    /// The shortest time between two evaluations of changed patients.
    public let changeSpacing: Duration
    private let evaluator: AlertEvaluator
    private let leases: any JobLeases
    private let clock: ServerClock
    private let onEvents: @Sendable ([AlertEvent]) -> Void
    private let logger: Logger
    private let executor = BlockingExecutor(label: "caresync.alerts")
    private let changed = Locked<Set<String>>([])
    private let doorbell = Doorbell()
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A job over `evaluator`'s stores, running while `leases` grants it the alerts lease, told of commits by `notifier`;
    /// `onEvents` hears of every alert raised or resolved (the server wakes its webhook dispatcher).
    public init(evaluator: AlertEvaluator, leases: any JobLeases, notifier: ChangeNotifier?, interval: Duration = .seconds(300),
                changeSpacing: Duration = .seconds(2), logger: Logger = Logger(label: "caresync.alerts"),
                clock: ServerClock, onEvents: @escaping @Sendable ([AlertEvent]) -> Void = { _ in }) {
        self.evaluator = evaluator; self.leases = leases; self.interval = interval; self.changeSpacing = changeSpacing
        self.logger = logger; self.clock = clock; self.onEvents = onEvents
        notifier?.onSignal { [weak self] patient in
            guard let self else { return }
            changed.withLock { _ = $0.insert(patient) }
            doorbell.ring()
        }
    }

    /// Patients with a commit not yet evaluated.
    public var pendingPatients: Set<String> { changed.withLock { $0 } }

    /// Evaluates the patients changed since the last run when this instance holds the lease; returns the events, or nil
    /// when skipped (the patients are dropped then: the holder hears of the same commits, and a lease that moves to this
    /// instance starts with a run over every patient at its next scheduled run).
    @discardableResult
    public func runChanged() throws -> [AlertEvent]? {
        let patients = changed.withLock { set in defer { set.removeAll() }; return set }
        return try leases.runLeased(.alerts, logger: logger) {
            let now = clock.now()
            return try report(evaluator.evaluate(patients: patients.sorted(), now: now))
        }
    }

    /// Evaluates every patient of every care team when this instance holds the lease; returns the events, or nil when skipped.
    @discardableResult
    public func runAll() throws -> [AlertEvent]? {
        try leases.runLeased(.alerts, logger: logger) {
            changed.withLock { $0.removeAll() }
            return try report(evaluator.evaluateAll(now: clock.now()))
        }
    }

    /// Logs and hands on `events`.
    private func report(_ events: [AlertEvent]) -> [AlertEvent] {
        if !events.isEmpty {
            logger.info("alerts.evaluated", metadata: ["alerts.raised": .stringConvertible(events.filter { $0.kind == .raised }.count),
                                                       "alerts.resolved": .stringConvertible(events.filter { $0.kind == .resolved }.count)])
            onEvents(events)
        }
        return events
    }

    /// Starts the runs (every patient at once, then on commits and every `interval`); a second call does nothing.
    public func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task.detached(priority: .background) { [self] in
                var lastSweep: ContinuousClock.Instant?
                while !Task.isCancelled {
                    do {
                        if lastSweep.map({ clock.instant() - $0 >= interval }) ?? true {
                            lastSweep = clock.instant()
                            _ = try await executor.run { try self.runAll() }
                        } else if !pendingPatients.isEmpty {
                            _ = try await executor.run { try self.runChanged() }
                        }
                    } catch {
                        logger.error("alerts.evaluation_failed", metadata: ["error.type": .string(String(describing: type(of: error)))])
                    }
                    guard (try? await Task.sleep(for: changeSpacing)) != nil else { return }
                    let untilSweep = lastSweep.map { interval - (clock.instant() - $0) } ?? .zero
                    if pendingPatients.isEmpty && untilSweep > .zero { await doorbell.wait(upTo: untilSweep) }
                }
            }
        }
    }

    /// Stops the runs and waits for one in progress to end.
    public func stop() async {
        let running = task.withLock { current in defer { current = nil }; return current }
        running?.cancel()
        doorbell.ring()
        await running?.value
    }
}
