import CareSyncTestSupport
import Foundation
@testable import CareSyncServer

/// A log sink that keeps every line, for tests.
final class LineCollector: Sendable {
    private let stored = Shared<[String]>([])

    /// The lines written so far.
    var lines: [String] { stored.current }

    /// A sink appending to this collector.
    var sink: LogSink {
        LogSink { line in self.stored.update { $0.append(line) } }
    }
}
