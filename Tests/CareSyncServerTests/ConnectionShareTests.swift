import Foundation
import Testing
import CareSyncTestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import CareSyncServer

/// No client takes every connection: a share per client address, a share of long polls and streams per token,
/// and slots kept for health probes. Over real sockets; `/healthz` answers throughout.
@Suite(.serialized) struct ConnectionShareTests {
    /// A socket connected to the server from `source` (any 127.0.0.0/8 address is loopback), sending nothing.
    static func silentConnection(port: Int, from source: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPClient.Failure.connect(errno) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var server = sockaddr_in()
        server.sin_family = sa_family_t(AF_INET)
        server.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &server.sin_addr)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &server) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            let code = errno
            close(fd)
            throw TestHTTPClient.Failure.connect(code)
        }
        return fd
    }

    /// What the server sent on `fd` so far, without waiting ("" when nothing yet).
    static func received(_ fd: Int32) -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        return n > 0 ? String(decoding: chunk[0..<n], as: UTF8.self) : ""
    }

    /// `/healthz`, `/readyz` and a therapist's feed read, each on a connection of its own from 127.0.0.1.
    static func othersAreServed(_ server: TestServer, feed: Int = 200, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await server.send("GET", "/healthz").status == 200, sourceLocation: sourceLocation)
        #expect(try await server.send("GET", "/readyz").status == 200, sourceLocation: sourceLocation)
        let read = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist)
        #expect(read.status == feed, "\(read.text)", sourceLocation: sourceLocation)
    }

    /// The value of the `/metrics` sample whose name contains `name` and whose labels contain `reason`.
    static func metric(_ server: TestServer, _ name: String, _ reason: String) async throws -> Double? {
        let text = try await server.send("GET", "/metrics").text
        let line = text.split(separator: "\n").first { !$0.hasPrefix("#") && $0.contains(name) && $0.contains("\"\(reason)\"") }
        return line?.split(separator: " ").last.flatMap { Double($0) }
    }

    @Test func oneAddressHoldsAtMostItsShareOfConnections() async throws {
        try await TestServer.with(configure: {
            $0.maxConnections = 40
            $0.maxConnectionsPerAddress = 10
            $0.reservedProbeConnections = 2
            // The admitted silent connections must outlast a slow, loaded run of this test.
            $0.timeouts.headerRead = .seconds(120)
        }) { server in
            let sockets = try (0..<40).map { _ in try Self.silentConnection(port: server.port, from: "127.0.0.2") }
            defer { for fd in sockets { close(fd) } }
            // Thirty are refused at once with 429; the ten admitted wait for their header deadline.
            var refusals: [Int32: String] = [:]
            try await Eventually.until {
                for fd in sockets where refusals[fd] == nil {
                    let text = Self.received(fd)
                    if !text.isEmpty { refusals[fd] = text }
                }
                return refusals.count >= 30
            }
            #expect(refusals.count == 30)
            #expect(refusals.values.allSatisfy { $0.hasPrefix("HTTP/1.1 429 ") && $0.contains("\"code\":\"tooManyRequests\"") && $0.contains("Retry-After:") })
            #expect(server.app.http.connectionCount == 10)
            try await Self.othersAreServed(server)
            #expect(try await Self.metric(server, "connections_refused", "address") == 30)
        }
    }

    @Test func healthProbesAnswerWhenEveryOtherSlotIsTaken() async throws {
        try await TestServer.with(configure: {
            $0.maxConnections = 12
            $0.maxConnectionsPerAddress = 0
            $0.reservedProbeConnections = 2
            $0.timeouts.headerRead = .seconds(120)
        }) { server in
            let sockets = try (0..<10).map { _ in try Self.silentConnection(port: server.port, from: "127.0.0.3") }
            defer { for fd in sockets { close(fd) } }
            try await Eventually.until { server.app.http.connectionCount == 10 }
            // The two slots left are the probes': a feed read there is refused as at the cap; probes are served.
            let refused = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist)
            refused.expectProblem(503, "unavailable")
            #expect(refused.header("Retry-After") != nil)
            try await Self.othersAreServed(server, feed: 503)
            for _ in 0..<3 { #expect(try await server.send("GET", "/healthz").status == 200) }
            #expect(try await Self.metric(server, "connections_refused", "reserved") == 2)
        }
    }

    @Test func oneTokenHoldsAtMostItsShareOfStreamsAndLongPolls() async throws {
        try await TestServer.with(configure: {
            $0.maxConnections = 40
            $0.rateLimits.waitsPerToken = 4
        }) { server in
            let t = server.tokens
            let path = "/v1/patients/alice/changes"
            var streams: [EventStreamClient] = []
            var refused: [EventStreamClient] = []
            for _ in 0..<40 {
                let stream = try await EventStreamClient.open(port: server.port, path: path, token: t.aliceDevice)
                if stream.status == 200 { streams.append(stream) } else { refused.append(stream); stream.close() }
            }
            defer { for s in streams { s.close() } }
            #expect(streams.count == 4)
            #expect(refused.count == 36)
            #expect(refused.allSatisfy { $0.status == 429 && $0.header("Retry-After") != nil })
            let id = try #require(TokenSecret.id(of: t.aliceDevice))
            #expect(server.app.api.tokenWaits.held(by: id) == 4)
            try await Eventually.until { server.app.http.connectionCount == 4 }
            // A long poll of the same token is over its share too; another token's is not.
            let head = try await server.send("GET", path, token: t.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let poll = try await server.send("GET", path + "?anchor=\(anchor)&wait=1", token: t.aliceDevice)
            poll.expectProblem(429, "tooManyRequests")
            try await Self.othersAreServed(server)
            #expect(try await Self.metric(server, "rate_limited", "tokenWaits") == 37, "36 streams and 1 long poll refused")
            let other = try await server.send("GET", path + "?anchor=\(anchor)&wait=1", token: t.therapist)
            #expect(other.status == 200)
            // A stream that ends gives its place back.
            streams.removeFirst().close()
            try await Eventually.until { server.app.api.tokenWaits.held(by: id) == 3 }
            let again = try await EventStreamClient.open(port: server.port, path: path, token: t.aliceDevice)
            #expect(again.status == 200)
            again.close()
        }
    }
}
