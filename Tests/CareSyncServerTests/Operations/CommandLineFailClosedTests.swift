import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The `caresync` executable refuses what it cannot use with exit 1 and one line on stderr,
/// and `caresync healthcheck` exits 0 for a ready server and 1 for a stopped one.
@Suite(.serialized) struct CommandLineFailClosedTests {
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("caresync").path
    }

    /// A fresh folder, an environment pointing the database into it, and the repository's migrations.
    struct Sandbox {
        let directory: TemporaryDirectory
        var folder: URL { directory.url }
        var database: String { folder.appendingPathComponent("caresync.sqlite").path }
        var environment: [String: String] {
            ["CARESYNC_DATABASE": database,
             "CARESYNC_MIGRATIONS_DIRECTORY": TestServer.repositoryRoot.appendingPathComponent("migrations").path]
        }
        static func make() throws -> Sandbox {
            Sandbox(directory: try TemporaryDirectory("caresync-cli"))
        }
        func remove() { directory.remove() }
    }

    /// Runs the executable to completion (60 s at most), on a thread of its own.
    static func run(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, stderr: String) {
        try await onDedicatedThread { try runBlocking(arguments, environment: environment) }
    }

    /// `run`, blocking the calling thread.
    static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let process = try ChildProcess(executable, arguments, environment: environment,
                                       standardOutput: .null, standardError: .pipe)
        let timer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: timer)
        let stderr = process.standardError!.readDataToEndOfFile()
        let ended = process.waitUntilExit()
        timer.cancel()
        return (ended.status, String(decoding: stderr, as: UTF8.self))
    }

    /// Expects `serve` to refuse: exit 1, exactly one non-empty line on stderr containing `fragment`.
    static func expectRefusal(_ arguments: [String], environment: [String: String], mentioning fragment: String) async throws {
        let (status, stderr) = try await run(arguments, environment: environment)
        #expect(status == 1, "\(arguments): \(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)")
        #expect(stderr.contains(fragment), "\(stderr)")
    }

    @Test func executableIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable), "\(Self.executable)")
    }

    @Test func corruptDatabaseStopsStartup() async throws {
        let sandbox = try Sandbox.make()
        defer { sandbox.remove() }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: sandbox.database))
        try await Self.expectRefusal(["serve", "--port", "0"], environment: sandbox.environment, mentioning: "not a database")
    }

    @Test func changedMigrationStopsStartup() async throws {
        let sandbox = try Sandbox.make()
        defer { sandbox.remove() }
        #expect(try await Self.run(["migrate"], environment: sandbox.environment).status == 0)
        // A copy of migrations/ in which an applied file was edited afterwards.
        let copy = sandbox.folder.appendingPathComponent("migrations")
        try FileManager.default.copyItem(at: TestServer.repositoryRoot.appendingPathComponent("migrations"), to: copy)
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: copy.path).sorted().first)
        let handle = try FileHandle(forWritingTo: copy.appendingPathComponent(first))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n-- edited after it was applied\n".utf8))
        try handle.close()
        var environment = sandbox.environment
        environment["CARESYNC_MIGRATIONS_DIRECTORY"] = copy.path
        try await Self.expectRefusal(["serve", "--port", "0"], environment: environment, mentioning: first)
    }

    @Test func missingMigrationsDirectoryStopsStartupWithOneLine() async throws {
        let sandbox = try Sandbox.make()
        defer { sandbox.remove() }
        var environment = sandbox.environment
        environment["CARESYNC_MIGRATIONS_DIRECTORY"] = sandbox.folder.appendingPathComponent("no-migrations-here").path
        try await Self.expectRefusal(["serve", "--port", "0"], environment: environment,
                               mentioning: "cannot read the migrations directory")
    }

    @Test func databaseInAFileInsteadOfAFolderStopsStartup() async throws {
        let sandbox = try Sandbox.make()
        defer { sandbox.remove() }
        let blocker = sandbox.folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        var environment = sandbox.environment
        environment["CARESYNC_DATABASE"] = blocker.appendingPathComponent("caresync.sqlite").path
        let (status, stderr) = try await Self.run(["serve", "--port", "0"], environment: environment)
        #expect(status == 1, "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    }

    @Test(arguments: [
        (["serve", "--port", "70000"], [String: String](), "for port (flag --port)"),
        (["serve"], ["CARESYNC_PROT": "8080"], "CARESYNC_PROT"),
        (["serve"], ["CARESYNC_LOG_FORMAT": "xml"], "log.format"),
        (["healthcheck"], ["CARESYNC_TIMEOUTS_IDLE_SECONDS": "-1"], "timeouts.idleSeconds"),
    ])
    func badConfigurationStopsTheCommand(arguments: [String], extra: [String: String], fragment: String) async throws {
        let sandbox = try Sandbox.make()
        defer { sandbox.remove() }
        let environment = sandbox.environment.merging(extra) { _, new in new }
        let (status, stderr) = try await Self.run(arguments, environment: environment)
        #expect(status != 0)
        #expect(stderr.contains(fragment), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "must refuse before touching the database")
    }
}

extension CommandLineFailClosedTests {
    @Test func healthcheckExitsZeroWhileServingAndOneAfterStop() async throws {
        let sandbox = try Sandbox.make()
        defer { sandbox.remove() }
        let server = try await ServeProcess.start(executable: Self.executable, environment: sandbox.environment)
        defer { server.stop() }
        let serve = server.process, port = String(server.port)

        #expect(try await Self.run(["healthcheck", "--port", port], environment: sandbox.environment).status == 0)
        serve.terminate()
        #expect(try await serve.exited().status == 0)
        let down = try await Self.run(["healthcheck", "--port", port, "--timeout", "2"], environment: sandbox.environment)
        #expect(down.status == 1)
        #expect(down.stderr.contains("/readyz"), "\(down.stderr)")
    }
}
