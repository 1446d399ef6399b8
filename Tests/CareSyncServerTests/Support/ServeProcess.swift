import CareSyncTestSupport
import Foundation

/// `caresync serve --port 0` as a child process, with the port its ready line announced.
struct ServeProcess: Sendable {
    struct NoReadyLine: Error { let line: String }

    let process: ChildProcess
    let port: Int
    /// The server's stdout, read up to and including the ready line.
    let output: FileHandle

    /// Starts the server and reads its one `listening on http://127.0.0.1:P` line, on a thread of its own.
    static func start(executable: String, environment: [String: String]) async throws -> ServeProcess {
        try await onDedicatedThread { try startBlocking(executable: executable, environment: environment) }
    }

    /// `start`, blocking the calling thread.
    static func startBlocking(executable: String, environment: [String: String]) throws -> ServeProcess {
        let process = try ChildProcess(executable, ["serve", "--port", "0"], environment: environment,
                                       standardOutput: .pipe, standardError: .null)
        let out = process.standardOutput!
        var line: [UInt8] = []
        while let byte = out.readData(ofLength: 1).first, byte != 10 { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.wholeMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/), let port = Int(match.1) else {
            process.terminate()
            throw NoReadyLine(line: text)
        }
        return ServeProcess(process: process, port: port, output: out)
    }

    /// Ends the server if it still runs (SIGTERM).
    func stop() { process.terminate() }
}
