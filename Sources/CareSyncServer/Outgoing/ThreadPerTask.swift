import Foundation

/// Runs blocking tasks each on a thread of its own, as many at once as are given, reusing threads: a task goes to
/// a thread waiting idle when there is one, else to a new thread; a thread idle for `keepAlive` ends. A blocked task
/// never holds another back (a dispatch queue's shared pool would), and a steady stream of tasks pays no thread's
/// creation.
final class ThreadPerTask: @unchecked Sendable {
    // @unchecked: `pending`, `idle` and `started` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var pending: [@Sendable () -> Void] = []
    private var idle = 0
    private var started = 0
    private let keepAlive: TimeInterval

    /// Threads that end after `keepAlive` seconds without a task.
    init(keepAlive: TimeInterval = 10) { self.keepAlive = keepAlive }

    /// Threads started so far (tests see reuse through it).
    var threadsStarted: Int { condition.withLock { started } }

    /// Threads waiting for a task.
    var idleThreads: Int { condition.withLock { idle } }

    /// Runs `task` on a thread of its own: an idle one, or a new one when every thread is busy.
    func run(_ task: @escaping @Sendable () -> Void) {
        let startsThread = condition.withLock { () -> Bool in
            pending.append(task)
            guard idle < pending.count else {
                condition.signal()
                return false
            }
            started += 1
            return true
        }
        if startsThread { Thread.detachNewThread { [self] in work() } }
    }

    /// Takes tasks until none came for `keepAlive`.
    private func work() {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let deadline = Date(timeIntervalSinceNow: keepAlive)
            while pending.isEmpty {
                idle += 1
                let woken = condition.wait(until: deadline)
                idle -= 1
                if !woken, pending.isEmpty { return }
            }
            let task = pending.removeFirst()
            condition.unlock()
            task()
            condition.lock()
        }
    }
}
