import Foundation
import Testing

/// The agent on a terminal: a progress bar redrawn in place on stderr when it is a terminal, none when it is
/// not (or with `--quiet`), and the token never printed.
@Suite struct AgentTerminalTests {
    /// util-linux `script`, which runs a command under a pseudo-terminal.
    static let script = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SCRIPT_BIN"] ?? "/usr/bin/script")
    /// What the agent writes to redraw its progress line: carriage return, erase to the end of the line.
    static let redraw = "\r\u{1B}[K"

    /// Runs the agent under a pseudo-terminal (stdout and stderr both on it); returns its exit status and
    /// everything the terminal showed. The token reaches it through the environment only.
    static func underTerminal(_ arguments: [String], server: LiveServer) throws -> (Int32, String) {
        let command = ([MirrorTests.agent.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let process = Process()
        process.executableURL = script
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        process.environment = AgentRun.environment(server)
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static func occurrences(of needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func onATerminalTheImportRedrawsAProgressBar() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.script.path), "needs util-linux script")
        let server = try LiveServer()
        let file = try ImportTests.write(ImportTests.export(steps: 200))
        let (status, shown) = try Self.underTerminal(["import", file.path, "--patient", "alice", "--batch-size", "20"], server: server)
        #expect(status == 0, "\(shown)")
        #expect(Self.occurrences(of: Self.redraw + "[", in: shown) >= 10, "no progress line redrawn in place: \(shown.debugDescription)")
        #expect(shown.contains("] 100% 205 records: 204 new"), "\(shown.debugDescription)")
        #expect(shown.contains("sent: 204"), "no summary: \(shown)")
        #expect(!shown.contains(server.deviceToken) && !shown.contains("Bearer"), "the token was printed")
    }

    @Test func withQuietOnATerminalThereIsNoProgressBar() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.script.path), "needs util-linux script")
        let server = try LiveServer()
        let file = try ImportTests.write(ImportTests.export(steps: 200))
        let (status, shown) = try Self.underTerminal(["import", file.path, "--patient", "alice", "--batch-size", "20", "--quiet"], server: server)
        #expect(status == 0, "\(shown)")
        #expect(!shown.contains("\u{1B}[K") && !shown.contains("%"), "a progress bar with --quiet: \(shown.debugDescription)")
        #expect(shown.contains("sent: 204"))
        #expect(!shown.contains(server.deviceToken))
    }

    @Test func withoutATerminalThereIsNoProgressBar() async throws {
        let server = try LiveServer()
        let file = try ImportTests.write(ImportTests.export(steps: 200))
        let (status, stdout, stderr) = try AgentRun.run(["import", file.path, "--patient", "alice", "--batch-size", "20"], server: server)
        #expect(status == 0, "\(stderr)")
        #expect(stderr.isEmpty, "stderr is a file, yet it got \(stderr.debugDescription)")
        #expect(!stdout.contains("\r") && stdout.contains("sent: 204"))
        #expect(!(stdout + stderr).contains(server.deviceToken))
    }

    @Test func theMirrorRedrawsItsLineAndARefusalNeverShowsTheToken() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.script.path), "needs util-linux script")
        let server = try LiveServer()
        _ = try await server.device().push(patient: "alice", samples: Story.steps(100))
        let path = try MirrorTests.replicaPath()
        let (status, shown) = try Self.underTerminal(["mirror", "--patient", "alice", "--into", path, "--page-size", "10"], server: server)
        #expect(status == 0, "\(shown)")
        #expect(Self.occurrences(of: Self.redraw + "applied ", in: shown) == 10, "\(shown.debugDescription)")
        #expect(shown.contains("100 samples") && shown.contains("verified against the server's checksums"))

        let (refused, said) = try Self.underTerminal(["mirror", "--patient", "bob", "--into", try MirrorTests.replicaPath()], server: server)
        #expect(refused != 0 && said.contains("the server refused"), "\(said)")
        for shown in [shown, said] { #expect(!shown.contains(server.deviceToken) && !shown.contains("Bearer")) }
    }
}
