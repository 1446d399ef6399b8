import CareSyncLocking

/// Wakes one waiting task early: `wait(upTo:)` returns at the first `ring()` or at its timeout. A ring while nobody
/// waits is kept for the next wait, so none is lost between a check and the wait.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    /// Wakes the waiter, or the next one.
    func ring() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let waiter = s.waiter else { s.rung = true; return nil }
            s.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next ring, or after `timeout`. One waiter at a time.
    func wait(upTo timeout: Duration) async {
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.ring()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.rung { s.rung = false; return true }
                s.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
