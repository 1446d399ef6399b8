import Dispatch
import Foundation
import Synchronization

/// SIGTERM and SIGINT, caught from creation on; `wait()` returns once either arrived.
public final class TerminationSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    nonisolated(unsafe) private var sources: [DispatchSourceSignal] = []

    /// Catches SIGTERM and SIGINT from now on (their default action, exiting, is turned off).
    public init() {
        let queue = DispatchQueue(label: "caresync.signals")
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    private func fire() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.fired = true
            let w = s.waiter
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    /// Suspends until a termination signal has arrived.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { s -> Bool in
                if s.fired { return true }
                s.waiter = continuation
                return false
            }
            if fired { continuation.resume() }
        }
    }
}
