import CareSyncHTTP
import CareSyncTestSupport
import Foundation
import HTTPTypes
import Logging
@testable import CareSyncServer

/// A clinic system's webhook endpoint on a loopback port, for the delivery tests: records every request and answers
/// as `answer` says (by the request's index, 0 for the first).
final class WebhookReceiver: Sendable {
    /// One request as it arrived.
    struct Received: Sendable {
        let path: String
        let headers: [String: String]
        let body: [UInt8]
        /// The parsed body.
        var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
        /// `data.sequence`.
        var sequence: Int? { json["data"]?["sequence"]?.numberValue.map(Int.init) }
    }

    let server: HTTPServer
    let host: String
    let port: Int
    private let log = Shared<[Received]>([])

    /// Listens on `host` (any loopback address, 127.0.0.1 by default) and `port` (0: a free one); `answer` picks each
    /// response (default 204).
    init(host: String = "127.0.0.1", port: Int = 0,
         answer: @escaping @Sendable (Int, Request) async -> Response = { _, _ in Response(status: .noContent) }) throws {
        let log = self.log
        self.host = host
        var configuration = HTTPServer.Configuration(host: host, port: port)
        configuration.eventLoopCount = 1
        server = HTTPServer(configuration: configuration, responder: ClosureResponder { request, _ in
            let index = log.update { list -> Int in
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.canonicalName] = field.value }
                list.append(Received(path: request.path, headers: headers, body: request.body))
                return list.count - 1
            }
            return await answer(index, request)
        }, logger: Logger(label: "test.receiver"))
        self.port = try server.start()
    }

    /// The URL of `path` on it.
    func url(_ path: String = "/hook") -> String { "http://\(host):\(port)\(path)" }

    /// Every request so far.
    var received: [Received] { log.current }

    func stop() async { await server.shutdown(gracePeriod: .seconds(1)) }
}
