import Dispatch
import Foundation

/// How a wait for a patient's next change ended.
public enum ChangeWaitResult: Hashable, Sendable {
    /// A change for the patient committed after the given sequence.
    case changed
    /// The timeout passed first.
    case timedOut
    /// The observation was cancelled.
    case cancelled
}

/// A handle on a registered wait; `cancel()` fires its callback with `.cancelled` unless it already fired.
public final class ChangeObservation: Sendable {
    private let cancelAction: @Sendable () -> Void
    init(cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }
    /// Stops waiting; the callback runs once with `.cancelled` if it had not run yet.
    public func cancel() { cancelAction() }
}

/// Per-patient change notifications for long polls, with no thread per waiter.
///
/// A waiter is a callback plus a timer on one shared queue. Writers call `notify` after their commit;
/// the hub remembers each patient's latest committed sequence, so a waiter registering just after a
/// commit it did not see (`after` below that sequence) fires at once instead of missing it.
/// Every callback runs exactly once, on the hub's queue; keep it short.
public final class ChangeSignal: @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `lock`.
    private struct Waiter {
        let after: Int64
        let callback: @Sendable (ChangeWaitResult) -> Void
        let timer: DispatchSourceTimer
    }

    private let lock = NSLock()
    private var latest: [String: Int64] = [:]
    private var waiters: [String: [UInt64: Waiter]] = [:]
    private var nextID: UInt64 = 0
    private let queue = DispatchQueue(label: "caresync.change-signal")

    /// An empty hub.
    public init() {}

    /// Calls `callback` once: when a change of `patient` with a sequence above `after` commits, when
    /// `timeout` seconds pass, or when the returned observation is cancelled.
    @discardableResult
    public func observe(patient: String, after: Int64, timeout: TimeInterval,
                        _ callback: @escaping @Sendable (ChangeWaitResult) -> Void) -> ChangeObservation {
        lock.lock()
        if let seen = latest[patient], seen > after {
            lock.unlock()
            queue.async { callback(.changed) }
            return ChangeObservation(cancel: {})
        }
        nextID += 1
        let id = nextID
        let timer = DispatchSource.makeTimerSource(queue: queue)
        waiters[patient, default: [:]][id] = Waiter(after: after, callback: callback, timer: timer)
        lock.unlock()
        timer.setEventHandler { [weak self] in self?.finish(patient: patient, id: id, with: .timedOut) }
        timer.schedule(deadline: .now() + max(0, timeout))
        timer.resume()
        return ChangeObservation(cancel: { [weak self] in self?.finish(patient: patient, id: id, with: .cancelled) })
    }

    /// Waits (suspending, not blocking a thread) for a change of `patient` above `after`, at most `timeout` seconds.
    /// Task cancellation ends the wait with `.cancelled`.
    public func wait(patient: String, after: Int64, timeout: TimeInterval) async -> ChangeWaitResult {
        let box = ObservationBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ChangeWaitResult, Never>) in
                box.set(observe(patient: patient, after: after, timeout: timeout) { continuation.resume(returning: $0) })
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Records that changes of `patient` up to `sequence` committed, and wakes its waiters that had not seen them.
    public func notify(patient: String, sequence: Int64) {
        lock.lock()
        latest[patient] = max(latest[patient] ?? 0, sequence)
        let ready = waiters[patient]?.filter { $0.value.after < sequence } ?? [:]
        for id in ready.keys { waiters[patient]?[id] = nil }
        if waiters[patient]?.isEmpty == true { waiters[patient] = nil }
        lock.unlock()
        for waiter in ready.values {
            waiter.timer.cancel()
            let callback = waiter.callback
            queue.async { callback(.changed) }
        }
    }

    /// How many waiters are registered (for metrics and tests).
    public var waiterCount: Int {
        lock.lock(); defer { lock.unlock() }
        return waiters.values.reduce(0) { $0 + $1.count }
    }

    private func finish(patient: String, id: UInt64, with result: ChangeWaitResult) {
        lock.lock()
        let waiter = waiters[patient]?.removeValue(forKey: id)
        if waiters[patient]?.isEmpty == true { waiters[patient] = nil }
        lock.unlock()
        guard let waiter else { return }
        waiter.timer.cancel()
        let callback = waiter.callback
        queue.async { callback(result) }
    }
}

/// Holds an observation that may arrive after cancellation was requested.
private final class ObservationBox: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var observation: ChangeObservation?
    private var cancelled = false

    func set(_ observation: ChangeObservation) {
        lock.lock()
        self.observation = observation
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { observation.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let observation = self.observation
        lock.unlock()
        observation?.cancel()
    }
}
