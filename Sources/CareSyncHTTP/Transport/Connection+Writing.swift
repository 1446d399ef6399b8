import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension Connection {
    /// Sends a prepared response; streams are pumped from a task with back-pressure.
    func send(_ prepared: PreparedResponse) {
        loop.assertOnLoop()
        guard phase != .closed, phase != .lingering else { return }
        handler = nil
        phase = .responding
        deadline = 0
        if prepared.close { closeAfterResponse = true }
        guard let stream = prepared.stream else {
            write(prepared.bytes) { [self] ok in if ok { responseWritten() } }
            return
        }
        write(prepared.bytes) { _ in }
        let logger = core.logger
        // The pump is the connection's handler now: a client that goes away cancels it, which ends the stream.
        let pump = HandlerTask()
        handler = pump
        pump.hold(Task {
            defer { pump.end() }
            var complete = true
            do {
                for try await piece in stream where !piece.isEmpty {
                    guard await self.writeAsync(prepared.chunked ? ResponseEncoder.chunk(piece) : piece) else { return }
                }
                // A cancelled stream ended early: no last chunk, the connection closes.
                if Task.isCancelled { complete = false }
                if complete, prepared.chunked, !(await self.writeAsync(ResponseEncoder.lastChunk)) { return }
            } catch {
                logger.error("response.stream.failed", metadata: ["error": .string(String(reflecting: error))])
                complete = false
            }
            let finished = complete
            self.loop.execute {
                // A stream that failed midway cannot be finished: close so the client sees it truncated.
                if !finished { self.closeAfterResponse = true }
                self.write([]) { [self] ok in if ok { responseWritten() } }
            }
        })
    }

    /// Writes from a task; returns false if the connection closed first.
    func writeAsync(_ bytes: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            loop.execute {
                self.write(bytes) { ok in continuation.resume(returning: ok) }
            }
        }
    }

    /// Writes `bytes` now as far as the socket takes them; the rest waits for the write source.
    /// `completion` runs once everything queued so far is in the kernel (true) or the connection closed (false).
    func write(_ bytes: [UInt8], completion: @escaping (Bool) -> Void) {
        loop.assertOnLoop()
        guard phase != .closed else {
            completion(false)
            return
        }
        if pendingIndex == pending.count {
            var offset = 0
            let failed: Bool = bytes.withUnsafeBytes { raw in
                while offset < raw.count {
                    let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if n > 0 {
                        offset += n
                    } else if n < 0, errno == EINTR {
                        continue
                    } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                        return false
                    } else {
                        return true
                    }
                }
                return false
            }
            if failed {
                close()
                completion(false)
                return
            }
            if offset == bytes.count {
                completion(true)
                return
            }
            pending = Array(bytes[offset...])
            pendingIndex = 0
        } else {
            pending += bytes
        }
        onDrained.append(completion)
        setDeadline(core.configuration.writeTimeout)
        waitForWritable(true)
    }

    /// The socket is writable again: send what is pending.
    func flush() {
        loop.assertOnLoop()
        guard phase != .closed, pendingIndex < pending.count || !onDrained.isEmpty else { return }
        while pendingIndex < pending.count {
            let n = pending.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + pendingIndex, raw.count - pendingIndex, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                pendingIndex += n
                // The write deadline bounds a stall, not a long transfer to a client that keeps reading.
                setDeadline(core.configuration.writeTimeout)
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                close()
                return
            }
        }
        pending = []
        pendingIndex = 0
        waitForWritable(false)
        deadline = 0
        let waiters = onDrained
        onDrained = []
        for waiter in waiters { waiter(true) }
    }

    /// The whole response is in the kernel: close (lingering), or wait for the next request.
    func responseWritten() {
        loop.assertOnLoop()
        guard phase == .responding else { return }
        current = nil
        if closeAfterResponse {
            linger()
            return
        }
        phase = .idle
        setDeadline(core.configuration.idleTimeout)
        resumeReading()
        process()
    }

    /// Shuts the write side and discards input until the peer closes, so that unread request
    /// bytes do not turn the close into a reset that could destroy the response.
    func linger() {
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        buffer = []
        readIndex = 0
        let wait = min(core.configuration.writeTimeout, .seconds(2))
        setDeadline(wait)
        resumeReading()
    }
}
