import Foundation

/// Runs the `caresync-agent` binary (``MirrorTests/agent``) against a live server, token in the environment.
enum AgentRun {
    /// The environment giving the agent `server` and its device token.
    static func environment(_ server: LiveServer) -> [String: String] {
        LiveServer.inherited.merging(["CARESYNC_URL": server.url.absoluteString, "CARESYNC_TOKEN": server.deviceToken]) { $1 }
    }

    /// Runs the agent to its end; returns its exit status, stdout and stderr (through files, not a terminal).
    static func run(_ arguments: [String], server: LiveServer) throws -> (Int32, String, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-agent-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("stdout"), err = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = MirrorTests.agent
        process.arguments = arguments
        process.environment = environment(server)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }

    /// Starts the agent in the background, its output discarded.
    static func start(_ arguments: [String], server: LiveServer) throws -> Process {
        let process = Process()
        process.executableURL = MirrorTests.agent
        process.arguments = arguments
        process.environment = environment(server)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
