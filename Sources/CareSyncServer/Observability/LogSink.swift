import Synchronization
import Foundation

/// Where finished log lines go: standard error in the server, a buffer in tests.
public struct LogSink: Sendable {
    /// Writes one complete line (without its newline).
    public let write: @Sendable (String) -> Void

    /// A sink calling `write` for every line.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Standard error, one `write(2)` per line under a lock so lines never interleave.
    /// (Standard output is kept for command results such as `token create`'s secret.)
    public static let standardError = LogSink { line in
        StandardErrorWriter.shared.write(line + "\n")
    }
}

/// Serializes writes to file descriptor 2.
private final class StandardErrorWriter: Sendable {
    static let shared = StandardErrorWriter()
    /// Held for each whole line, so lines of concurrent writers never interleave.
    private let lock = Mutex(())

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { buffer in
                    Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
