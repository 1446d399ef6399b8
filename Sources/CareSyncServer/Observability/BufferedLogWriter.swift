import Foundation

/// Collects finished log lines in memory and writes them to a file descriptor from a thread of its own, so a
/// request never waits for `write(2)`: at most every `interval` (and sooner once `batchBytes` are waiting), at
/// once for a line marked urgent (warning and above), and on ``flush()`` (shutdown, `exit`). Nothing is dropped:
/// when `maxPendingBytes` are waiting (the reader of the descriptor stalls), writers wait for the flush.
/// A process killed without warning (SIGKILL, a crash) loses only the lines of its last `interval`.
public final class BufferedLogWriter: @unchecked Sendable {
    /// The descriptor lines go to.
    public let descriptor: Int32
    /// The longest a line waits before it is written.
    public let interval: Duration
    /// Waiting bytes that wake the writer thread before `interval`.
    let batchBytes: Int
    /// Waiting bytes past which writers wait (back-pressure instead of unbounded memory or dropped lines).
    let maxPendingBytes: Int
    /// Guards `pending`, `started` and `closed`; signalled when bytes arrive past `batchBytes` and when a flush frees room.
    private let condition = NSCondition()
    /// Held while bytes are taken out and written, so flushes from different threads keep the lines' order.
    private let writing = NSLock()
    /// Lines not yet written.
    private var pending: [UInt8] = []
    /// Whether the writer thread runs (started by the first line).
    private var started = false
    /// Set by ``close()``: the writer thread ends.
    private var closed = false

    /// A writer to `descriptor` that writes at least every `interval`.
    public init(descriptor: Int32, interval: Duration = .milliseconds(250), batchBytes: Int = 64 * 1024,
                maxPendingBytes: Int = 4 * 1024 * 1024) {
        self.descriptor = descriptor
        self.interval = interval
        self.batchBytes = batchBytes
        self.maxPendingBytes = maxPendingBytes
        pending.reserveCapacity(batchBytes)
    }

    /// Queues `line` and a newline; an `urgent` line is written before this returns, with every line before it.
    public func write(_ line: String, urgent: Bool = false) {
        condition.lock()
        while pending.count >= maxPendingBytes { condition.wait() }
        pending.append(contentsOf: line.utf8)
        pending.append(UInt8(ascii: "\n"))
        let wake = pending.count >= batchBytes, now = urgent || closed
        if !started, !closed { started = true; startThread() }
        if wake { condition.signal() }
        condition.unlock()
        if now { flush() }
    }

    /// Writes every queued line now (shutdown, exit, an urgent line, the writer thread's turn).
    public func flush() {
        writing.lock()
        defer { writing.unlock() }
        condition.lock()
        var bytes: [UInt8] = []
        swap(&bytes, &pending)
        pending.reserveCapacity(batchBytes)
        condition.broadcast()  // writers waiting for room
        condition.unlock()
        Self.writeAll(bytes, to: descriptor)
    }

    /// Writes what is queued and ends the writer thread; later lines are written at once (tests, tools).
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        flush()
    }

    /// The number of bytes waiting to be written (tests).
    var pendingCount: Int { condition.lock(); defer { condition.unlock() }; return pending.count }

    /// Runs the loop that writes every `interval`, or sooner when a batch is full.
    private func startThread() {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [self] in
            while true {
                condition.lock()
                if pending.count < batchBytes, !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
                let (idle, done) = (pending.isEmpty, closed)
                condition.unlock()
                if !idle { flush() }
                if done { return }
            }
        }
        thread.name = "caresync.log"
        thread.start()
    }

    /// `write(2)` of all of `bytes`, retried after EINTR and partial writes; gives up on any other error (a log
    /// that cannot be written must not stop the server).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
