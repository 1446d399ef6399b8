import CareSyncLocking
import Foundation
import Logging

/// Where finished log lines go: standard error in the server, a buffer in tests.
public struct LogSink: Sendable {
    /// Writes one complete line (without its newline) logged at a level.
    private let emit: @Sendable (String, Logger.Level) -> Void

    /// A sink calling `write` for every line.
    public init(write: @escaping @Sendable (String) -> Void) {
        emit = { line, _ in write(line) }
    }

    /// A sink calling `write` for every line with the level it was logged at.
    public init(levelled write: @escaping @Sendable (String, Logger.Level) -> Void) {
        emit = write
    }

    /// Writes one complete line (without its newline) logged at `level`.
    public func write(_ line: String, level: Logger.Level = .info) { emit(line, level) }

    /// Standard error, one `write(2)` per line under a lock so lines never interleave (command-line tools).
    /// (Standard output is kept for command results such as `token create`'s secret.)
    public static let standardError = LogSink { line in
        StandardErrorWriter.shared.write(line + "\n")
    }

    /// Standard error through ``BufferedLogWriter``: lines leave off the request path, at least every 250 ms,
    /// warnings and worse at once, everything on ``flushStandardError()`` and at `exit` (`caresync serve`).
    public static let bufferedStandardError: LogSink = {
        let writer = standardErrorBuffer
        atexit { LogSink.standardErrorBuffer.flush() }
        return LogSink(levelled: { line, level in writer.write(line, urgent: level >= .warning) })
    }()

    /// The buffer behind ``bufferedStandardError``.
    static let standardErrorBuffer = BufferedLogWriter(descriptor: 2)

    /// Writes every line ``bufferedStandardError`` still holds (shutdown).
    public static func flushStandardError() { standardErrorBuffer.flush() }
}

/// Serializes writes to file descriptor 2.
private final class StandardErrorWriter: Sendable {
    static let shared = StandardErrorWriter()
    /// Held for each whole line, so lines of concurrent writers never interleave.
    private let lock = Locked(())

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        lock.withLock { _ in BufferedLogWriter.writeAll(bytes, to: 2) }
    }
}
