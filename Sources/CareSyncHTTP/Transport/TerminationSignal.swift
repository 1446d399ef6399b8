import Dispatch
import Foundation
import CareSyncLocking

/// The one signal catcher: SIGTERM and SIGINT (or the signals given), caught from creation on; `wait()` returns
/// once one arrived. Used by `CareSyncApplication.run()` and `HTTPServer.runUntilTerminated`.
public final class TerminationSignal: Sendable {
    private let state = Locked<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    private let signals: [Int32]
    nonisolated(unsafe) private let sources: [DispatchSourceSignal]  // set once in init; cancel() is thread-safe
    private let previous: Locked<[sig_t?]>

    /// Catches `signals` from now on (their default action, exiting, is turned off until `cancel()`).
    public init(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        let queue = DispatchQueue(label: "caresync.signals")
        self.signals = signals
        previous = Locked(signals.map { signal($0, SIG_IGN) })
        sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for source in sources {
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
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

    /// Suspends until one of the signals has arrived.
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

    /// Stops catching: the signals get back the dispositions they had before.
    public func cancel() {
        for source in sources { source.cancel() }
        let dispositions = previous.withLock { list in defer { list = [] }; return list }
        for (number, disposition) in zip(signals, dispositions) { signal(number, disposition) }
    }
}
