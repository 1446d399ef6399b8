import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The `caresync` executable: `serve --port 0` prints exactly one line when ready, and SIGTERM exits 0.
@Suite(.serialized) struct ServeCommandTests {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("caresync")
    }

    /// Runs the executable to completion on a thread of its own.
    func run(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await onDedicatedThread { try Self.runBlocking(arguments, environment: environment) }
    }

    /// `run`, blocking the calling thread.
    static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try ChildProcess(Self.executable.path, arguments, environment: environment,
                                       standardOutput: .pipe, standardError: .pipe)
        let stdout = process.standardOutput!.readDataToEndOfFile()
        let stderr = process.standardError!.readDataToEndOfFile()
        let status = process.waitUntilExit().status
        return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test func serveAnnouncesItselfAndDrainsOnSIGTERM() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
            Issue.record("caresync executable not built at \(Self.executable.path)")
            return
        }
        let directory = try TemporaryDirectory("caresync-serve")
        let env = ["CARESYNC_DATABASE": directory.path("db.sqlite"),
                   "CARESYNC_MIGRATIONS_DIRECTORY": TestServer.repositoryRoot.appendingPathComponent("migrations").path,
                   "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]

        // The operator commands: create a patient and a device token; the secret is alone on stdout.
        #expect(try await run(["patient", "create", "carol"], environment: env).status == 0)
        let token = try await run(["token", "create", "--role", "device", "--patient", "carol"], environment: env)
        #expect(token.status == 0)
        let secret = token.stdout.trimmingCharacters(in: .newlines)
        #expect(secret.hasPrefix("cs_") && !secret.contains("\n") && token.stdout.hasSuffix("\n"))
        #expect(try await run(["token", "create", "--role", "device", "--patient", "nobody"], environment: env).status != 0)

        let server = try await ServeProcess.start(executable: Self.executable.path, environment: env)
        defer { server.stop() }
        let process = server.process, port = server.port
        #expect(port > 0)

        let health = try await TestHTTPClient.send(port: port, method: "GET", path: "/healthz", headers: [], body: [])
        #expect(health.status == 200)
        let feed = try await TestHTTPClient.send(port: port, method: "GET", path: "/v1/patients/carol/changes",
                                                               headers: [("Authorization", "Bearer \(secret)")], body: [])
        #expect(feed.status == 200)

        process.terminate()
        let ended = try await process.exited()
        #expect(ended.reason == .exit)
        #expect(ended.status == 0)
        let rest = String(decoding: server.output.readDataToEndOfFile(), as: UTF8.self)
        // With nobody to sign in yet, one more line: the first admin's one-time link, on stdout only.
        let lines = rest.split(separator: "\n")
        #expect(lines.count == 1 && rest.hasSuffix("\n"), "serve must print the ready line and the first-run link only: \(rest)")
        #expect(lines.first?.contains("http://localhost:\(port)/invite#") == true, "\(rest)")
    }

    @Test func theFirstRunLinkMakesTheFirstAdminAndIsPrintedOnlyWhileNobodyExists() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
            Issue.record("caresync executable not built at \(Self.executable.path)")
            return
        }
        let directory = try TemporaryDirectory("caresync-first-run")
        let env = ["CARESYNC_DATABASE": directory.path("db.sqlite"),
                   "CARESYNC_MIGRATIONS_DIRECTORY": TestServer.repositoryRoot.appendingPathComponent("migrations").path,
                   "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        let first = try await ServeProcess.start(executable: Self.executable.path, environment: env)
        let output = first.output
        let text = try await onDedicatedThread { () -> String in
            var line: [UInt8] = []
            while let byte = output.readData(ofLength: 1).first, byte != 10 { line.append(byte) }
            return String(decoding: line, as: UTF8.self)
        }
        let secret = String(try #require(text.split(separator: "#").last))
        #expect(text.contains("/invite#") && SessionSecret.isWellFormed(secret), "\(text)")
        let redeemed = try await TestHTTPClient.send(port: first.port, method: "POST", path: "/v1/invitations/redeem",
                                                     headers: [("Content-Type", "application/json")], body: Array("{\"secret\":\"\(secret)\"}".utf8))
        #expect(redeemed.status == 201 && redeemed.json["person"]?["role"] == "admin", "\(redeemed.text)")
        first.process.terminate()
        try await first.process.exited()

        // An admin exists now: the next start prints the ready line only.
        let second = try await ServeProcess.start(executable: Self.executable.path, environment: env)
        second.process.terminate()
        try await second.process.exited()
        #expect(second.output.readDataToEndOfFile().isEmpty)

        // `person invite` prints a link at any time, alone on stdout.
        let invite = try await run(["person", "invite", "--role", "therapist", "--care-team", "nope"], environment: env)
        #expect(invite.status != 0 && invite.stdout.isEmpty)
        let admin = try await run(["person", "invite", "--role", "admin", "--display-name", "Ops"], environment: env)
        #expect(admin.status == 0 && admin.stdout.hasPrefix("http://localhost:8080/invite#") && admin.stdout.split(separator: "\n").count == 1,
                "\(admin.stdout) \(admin.stderr)")
    }

    /// `care-team remove-patient` in another process beside a running server on the same SQLite file: the server's
    /// watch (every 5 s) notices the removal and the reach it proved before goes; a second removal exits non-zero.
    @Test func theCommandLinesRemovalEndsTheRunningServersReach() async throws {
        let directory = try TemporaryDirectory("caresync-remove")
        let env = ["CARESYNC_DATABASE": directory.path("db.sqlite"),
                   "CARESYNC_MIGRATIONS_DIRECTORY": TestServer.repositoryRoot.appendingPathComponent("migrations").path,
                   "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        for command in [["patient", "create", "carol"], ["care-team", "create", "physio"], ["care-team", "add-patient", "physio", "carol"]] {
            #expect(try await run(command, environment: env).status == 0, "\(command)")
        }
        let token = try await run(["token", "create", "--role", "therapist", "--care-team", "physio"], environment: env)
        let secret = token.stdout.trimmingCharacters(in: .newlines)
        let server = try await ServeProcess.start(executable: Self.executable.path, environment: env)
        defer { server.stop() }
        func read() async throws -> Int {
            try await TestHTTPClient.send(port: server.port, method: "GET", path: "/v1/patients/carol/changes",
                                          headers: [("Authorization", "Bearer \(secret)")], body: []).status
        }
        #expect(try await read() == 200)
        let removed = try await run(["care-team", "remove-patient", "physio", "carol"], environment: env)
        #expect(removed.status == 0 && removed.stdout == "removed patient carol from care team physio\n", "\(removed)")
        let again = try await run(["care-team", "remove-patient", "physio", "carol"], environment: env)
        #expect(again.status != 0 && again.stderr.contains("not on care team physio"), "\(again)")
        // The watch looks every 5 s: allow twelve looks on a loaded machine.
        let end = ContinuousClock.now + .seconds(60)
        var status = try await read()
        while status != 404, ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(250))
            status = try await read()
        }
        #expect(status == 404)
    }
}
