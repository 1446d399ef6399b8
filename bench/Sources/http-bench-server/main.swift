import CareSyncHTTP
import CareSyncLocking
import Foundation
import Logging

// A trivial server for wrk, the differential check and manual tries:
//   http-bench-server [--host H] [--port P] [--log] [--on-loops] [--loops N]
// GET /hello answers a 13-byte text; POST /echo answers the (de-chunked, inflated) body;
// prints "listening on http://H:P" once ready; SIGTERM/SIGINT stop it gracefully.
// The floor of a long-poll wake-up (bench/http/wake.sh), on the paths bench/api/longpoll.c uses: GET
// /v1/patients/{p}/changes parks until POST /v1/patients/{p}/samples, then answers a feed-sized JSON body;
// GET /metrics says how many are parked (`caresync_feed_parked_long_polls N`). No store, no token, no audit.

var host = "127.0.0.1"
var port = 8080
var logRequests = false
var onLoops = false
var loops = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--host": host = arguments.next() ?? host
    case "--port": port = Int(arguments.next() ?? "") ?? port
    case "--log": logRequests = true
    case "--on-loops": onLoops = true
    case "--loops": loops = Int(arguments.next() ?? "") ?? 0
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

var logger = Logger(label: "http-bench-server")
logger.logLevel = logRequests ? .info : .warning

var router = Router()
let hello = Array("Hello, world!".utf8)
router.get("/hello") { _, _ in Response(status: .ok, headers: [.contentType: "text/plain"], body: .bytes(hello)) }
router.post("/echo") { request, _ in
    Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .bytes(request.body))
}
router.get("/items/{id}") { _, context in
    try Response.json(["id": context.parameters.require("id")])
}

/// Requests parked until the next wake.
final class Parking: Sendable {
    private let parked = Locked<[CheckedContinuation<Void, Never>]>([])
    /// How many wait now.
    var count: Int { parked.withLock { $0.count } }
    /// Waits for the next `wakeAll`.
    func park() async { await withCheckedContinuation { c in parked.withLock { $0.append(c) } } }
    /// Resumes every waiter.
    func wakeAll() { for c in parked.withLock({ list in defer { list = [] }; return list }) { c.resume() } }
}
let parking = Parking()
// About the size of a woken poll's answer from `caresync serve`: one sample and a sealed anchor.
let wokenBody = Array(("{\"samples\":[{\"uuid\":\"6F1B6C3E-6B2E-4A0E-9C55-3B7B2C1E0A11\",\"type\":\"stepCount\",\"value\":12,"
    + "\"unit\":\"count\",\"start\":\"2020-06-18T10:00:00Z\",\"end\":\"2020-06-18T10:01:00Z\",\"source\":\"org.example.writer\","
    + "\"metadata\":{}}],\"deletedObjects\":[],\"anchor\":\"" + String(repeating: "A", count: 110) + "\",\"hasMore\":false}").utf8)
router.get("/v1/patients/{patientId}/changes") { _, _ in
    await parking.park()
    return Response(status: .ok, headers: [.contentType: "application/json"], body: .bytes(wokenBody))
}
router.post("/v1/patients/{patientId}/samples") { _, _ in
    parking.wakeAll()
    return Response(status: .ok, headers: [.contentType: "application/json"], body: .bytes(Array("{}".utf8)))
}
router.get("/metrics") { _, _ in
    Response(status: .ok, headers: [.contentType: "text/plain"], body: .bytes(Array("caresync_feed_parked_long_polls \(parking.count)\n".utf8)))
}

/// One log line per request, for runs that measure logging's cost.
let accessLog = ClosureMiddleware { request, context, next in
    let response = try await next.respond(to: request, context: context)
    context.logger.info("http.request", metadata: [
        "http.method": .string(request.head.method.rawValue), "http.path": .string(request.head.path),
        "http.status": .stringConvertible(response.status.code),
    ])
    return response
}
let responder = logRequests ? router.wrapped(by: accessLog) : router
var configuration = HTTPServer.Configuration(host: host, port: port)
configuration.maxConnections = 20_000
configuration.handlersOnEventLoops = onLoops
configuration.eventLoopCount = loops
let server = HTTPServer(configuration: configuration, responder: responder, logger: logger)
do {
    let bound = try server.start()
    let shown = host.contains(":") ? "[\(host)]" : host
    FileHandle.standardOutput.write(Data("listening on http://\(shown):\(bound)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("cannot start: \(error)\n".utf8))
    exit(1)
}
await server.runUntilTerminated(gracePeriod: .seconds(5))
