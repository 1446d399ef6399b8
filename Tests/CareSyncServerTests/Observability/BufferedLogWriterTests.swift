import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The log buffer: lines leave off the caller's path, in order, all of them; urgent lines and flushes at once.
@Suite struct BufferedLogWriterTests {
    /// A pipe whose read end does not block, and a writer to its write end that would wait an hour on its own.
    static func make(batchBytes: Int = 64 * 1024) -> (writer: BufferedLogWriter, read: () -> String, close: () -> Void) {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let writer = BufferedLogWriter(descriptor: ends[1], interval: .seconds(3600), batchBytes: batchBytes)
        let read = { () -> String in
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = Foundation.read(ends[0], &chunk, chunk.count)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return (writer, read, { writer.close(); Foundation.close(ends[0]); Foundation.close(ends[1]) })
    }

    @Test func linesWaitForAFlushThenLeaveInOrder() {
        let (writer, read, close) = Self.make()
        defer { close() }
        for n in 1...100 { writer.write("line \(n)") }
        #expect(read() == "")
        #expect(writer.pendingCount > 0)
        writer.flush()
        #expect(read() == (1...100).map { "line \($0)\n" }.joined())
        #expect(writer.pendingCount == 0)
    }

    @Test func anUrgentLineLeavesAtOnceWithEveryLineBeforeIt() {
        let (writer, read, close) = Self.make()
        defer { close() }
        writer.write("first")
        writer.write("second", urgent: true)
        #expect(read() == "first\nsecond\n")
        writer.write("third")
        #expect(read() == "")
    }

    @Test func aFullBatchWakesTheWriterThread() async throws {
        let (writer, read, close) = Self.make(batchBytes: 1024)
        defer { close() }
        let line = String(repeating: "x", count: 99)
        for _ in 0..<11 { writer.write(line) }  // 1,100 bytes: past the batch
        var seen = ""
        try await Eventually.until { seen += read(); return seen.count == 1_100 }
        #expect(seen == String(repeating: line + "\n", count: 11))
    }

    @Test func concurrentWritersLoseNoLineAndNeverInterleave() async {
        let (writer, read, close) = Self.make(batchBytes: 4096)
        defer { close() }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for n in 0..<200 { writer.write("task \(task) line \(n)") } }
            }
        }
        var text = ""
        text += read()  // drain what the writer thread already wrote, so the pipe never fills
        writer.flush()
        text += read()
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1600)
        #expect(Set(lines).count == 1600)
        #expect(lines.allSatisfy { $0.hasPrefix("task ") && $0.split(separator: " ").count == 4 })
    }
}
