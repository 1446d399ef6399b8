import Foundation
@testable import CareSyncServer

/// A log sink that keeps every line, for tests.
final class LineCollector: @unchecked Sendable {
    /// Guards `stored`; every access holds it, which makes `@unchecked Sendable` sound.
    private let lock = NSLock()
    private var stored: [String] = []

    /// The lines written so far.
    var lines: [String] {
        lock.lock(); defer { lock.unlock() }
        return stored
    }

    /// A sink appending to this collector.
    var sink: LogSink {
        LogSink { line in
            self.lock.lock(); defer { self.lock.unlock() }
            self.stored.append(line)
        }
    }
}
