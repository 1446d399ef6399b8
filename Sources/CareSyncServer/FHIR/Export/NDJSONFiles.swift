import Foundation
import CareSyncLocking

/// NDJSON files of one kind in an export's folder (`observation-1.ndjson`, `observation-2.ndjson`, …), written a page
/// of lines at a time and rolled over at `linesPerFile`: the export never holds more than one page in memory.
/// Files are created readable by the server's user only (0600). The lock makes it usable from the blocking
/// executor's threads; one run writes it at a time.
final class NDJSONFiles: Sendable {
    private struct Open {
        var handle: FileHandle?
        var lines = 0
        var files: [ExportResult.File] = []
    }

    /// The folder the files go to.
    let directory: URL
    /// The name before `-N.ndjson`.
    let prefix: String
    /// Lines a file holds before the next one starts.
    let linesPerFile: Int
    private let open = Locked(Open())

    /// Files `prefix-N.ndjson` in `directory` (which must exist).
    init(directory: URL, prefix: String, linesPerFile: Int) {
        self.directory = directory; self.prefix = prefix; self.linesPerFile = max(1, linesPerFile)
    }

    /// Appends `lines` (each one JSON value without a newline), starting new files as they fill.
    func append(_ lines: [[UInt8]]) throws {
        try open.withLock { state in
            var pending = lines[...]
            while !pending.isEmpty {
                if state.handle == nil || state.lines == linesPerFile { try startFile(&state) }
                let room = linesPerFile - state.lines
                let batch = pending.prefix(room)
                var bytes: [UInt8] = []
                bytes.reserveCapacity(batch.reduce(0) { $0 + $1.count + 1 })
                for line in batch { bytes += line; bytes.append(0x0A) }
                try state.handle!.write(contentsOf: bytes)
                state.lines += batch.count
                state.files[state.files.count - 1].count += batch.count
                pending = pending.dropFirst(batch.count)
            }
        }
    }

    /// Closes the last file and answers every file written, with its line count.
    func finish() throws -> [ExportResult.File] {
        try open.withLock { state in
            try state.handle?.close()
            state.handle = nil
            return state.files
        }
    }

    /// Closes the current file and opens the next one, owner-only.
    private func startFile(_ state: inout Open) throws {
        try state.handle?.close()
        let name = "\(prefix)-\(state.files.count + 1).ndjson"
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        state.handle = handle
        state.lines = 0
        state.files.append(ExportResult.File(name: name, count: 0))
    }
}
