import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import CareSyncClient

/// A `caresync serve --port 0` process on a temporary database, with patient `alice` in care team
/// `physio`, a device token (source `org.example.phone`) and a therapist token (`org.example.therapist`).
/// The binary is `$CARESYNC_BIN`, else the repository's `.build/debug/caresync`; the migrations are
/// `$CARESYNC_MIGRATIONS_DIRECTORY`, else the repository's `migrations/`.
final class LiveServer: @unchecked Sendable {
    /// The temporary directory holding the database and the server's output.
    let directory: URL
    /// The device token's secret.
    private(set) var deviceToken: String
    /// The therapist token's secret.
    private(set) var therapistToken: String
    /// Extra environment for `serve` (rate limits …).
    let environment: [String: String]
    private(set) var url: URL
    private var process: Process?

    /// The database file.
    var database: URL { directory.appendingPathComponent("caresync.sqlite") }

    /// The repository root: Clients/Swift/Tests/CareSyncClientTests/LiveServer.swift, five levels up.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["CARESYNC_BIN"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return repository.appendingPathComponent(".build/debug/caresync")
    }

    /// This process's environment without `CARESYNC_*` (caresync refuses keys it does not know, such as CARESYNC_BIN).
    static var inherited: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CARESYNC_") }
    }

    /// The environment every `caresync` run gets: this database, its migrations, quiet logs.
    var baseEnvironment: [String: String] {
        let migrations = ProcessInfo.processInfo.environment["CARESYNC_MIGRATIONS_DIRECTORY"]
            ?? Self.repository.appendingPathComponent("migrations").path
        return ["CARESYNC_DATABASE": database.path, "CARESYNC_MIGRATIONS_DIRECTORY": migrations, "CARESYNC_LOG_LEVEL": "warning"]
    }

    /// Creates the database and tokens, then starts the server.
    init(environment: [String: String] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.environment = environment
        url = URL(string: "http://127.0.0.1:1")!
        deviceToken = ""
        therapistToken = ""
        let env = baseEnvironment
        _ = try Self.run(["patient", "create", "alice", "--time-zone", "America/Los_Angeles"], env)
        _ = try Self.run(["care-team", "create", "physio"], env)
        _ = try Self.run(["care-team", "add-patient", "physio", "alice"], env)
        deviceToken = try Self.run(["token", "create", "--role", "device", "--patient", "alice", "--source", "org.example.phone"], env)
        therapistToken = try Self.run(["token", "create", "--role", "therapist", "--care-team", "physio",
                                       "--source", "org.example.therapist"], env)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client of this server as the device.
    func device(session: URLSession? = nil, retryPolicy: RetryPolicy = .standard) -> CareSyncClient {
        CareSyncClient(baseURL: url, token: deviceToken, session: session, retryPolicy: retryPolicy)
    }

    /// A client of this server as the therapist.
    func therapist() -> CareSyncClient { CareSyncClient(baseURL: url, token: therapistToken) }

    /// Starts `serve --port 0` and waits for its `listening on` line.
    func start() throws {
        let out = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0"]
        process.environment = Self.inherited.merging(baseEnvironment.merging(environment) { $1 }) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        for _ in 0..<300 {
            let text = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                url = URL(string: String(line.dropFirst("listening on ".count)))!
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw ServerError("serve did not print its address (binary \(Self.binary.path))")
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Runs the CLI with `arguments`; returns its stdout, trimmed.
    @discardableResult
    static func run(_ arguments: [String], _ environment: [String: String], executable: URL = binary) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = inherited.merging(environment) { $1 }
        let pipe = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-cli-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let stderr = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            throw ServerError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The value of the Prometheus counter `name` (summed over labels; only lines containing `matching`, if
    /// given) from `/metrics`.
    func metric(_ name: String, matching: String? = nil) async throws -> Double {
        let (data, _) = try await URLSession.shared.data(from: url.appendingPathComponent("metrics"))
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            .filter { line in matching.map { line.contains($0) } ?? true }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0, +)
    }
}

/// A failure of the test harness.
struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
