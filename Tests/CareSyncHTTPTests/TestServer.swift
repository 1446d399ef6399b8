import CareSyncHTTP
import HTTPTypes
import Logging

/// Starts servers on port 0 for live tests, with short deadlines.
enum TestServer {
    /// A configuration with test-sized deadlines.
    /// Deadlines long enough that a loaded machine never trips them by accident; the deadline
    /// suites ask for short ones (`shortDeadlines()`) or drive an injected clock.
    static func configuration(
        host: String = "127.0.0.1", header: Duration = .seconds(10), body: Duration = .seconds(10),
        idle: Duration = .seconds(10), write: Duration = .seconds(10)
    ) -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(host: host, port: 0)
        configuration.headerReadTimeout = header
        configuration.bodyReadTimeout = body
        configuration.idleTimeout = idle
        configuration.writeTimeout = write
        configuration.eventLoopCount = 2
        return configuration
    }

    /// Real deadlines short enough for the live deadline tests to wait them out.
    static func shortDeadlines() -> HTTPServer.Configuration {
        configuration(header: .milliseconds(300), body: .milliseconds(300), idle: .milliseconds(400), write: .milliseconds(300))
    }

    /// A router with the endpoints the live tests use.
    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _, _ in .text("hello") }
        router.post("/echo") { request, _ in
            Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .bytes(request.body))
        }
        router.get("/big") { _, _ in .text(String(repeating: "caresync ", count: 1000)) }
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .milliseconds(300))
            return .text("slow")
        }
        router.get("/stream") { _, _ in
            let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            Task {
                for n in 0..<3 {
                    continuation.yield(Array("part\(n);".utf8))
                    try await Task.sleep(for: .milliseconds(10))
                }
                continuation.finish()
            }
            return Response(status: .ok, body: .stream(stream))
        }
        return router
    }

    /// A logger that stays silent in test output.
    static var quietLogger: Logger {
        var logger = Logger(label: "caresync.http.test")
        logger.logLevel = .critical
        return logger
    }

    /// Starts a server; returns it with its port.
    static func start(
        _ configuration: HTTPServer.Configuration = configuration(), responder: (any HTTPResponder)? = nil,
        headFilter: (any RequestHeadFilter)? = nil
    ) throws -> (HTTPServer, Int) {
        var logger = Logger(label: "caresync.http.test")
        logger.logLevel = .critical
        let server = HTTPServer(
            configuration: configuration, responder: responder ?? router(), headFilter: headFilter, logger: logger)
        let port = try server.start()
        return (server, port)
    }
}
