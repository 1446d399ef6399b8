import HTTPTypes
import Logging

/// Runs requests through a responder exactly as the server would (head filter, error rendering,
/// HEAD without body), but without sockets: for handler tests.
public struct InMemoryClient: Sendable {
    let pipeline: RequestPipeline
    /// The configuration whose limits apply.
    public let configuration: HTTPServer.Configuration

    /// Creates a client for `responder`.
    public init(
        responder: any HTTPResponder, headFilter: (any RequestHeadFilter)? = nil,
        configuration: HTTPServer.Configuration = .init(), logger: Logger = Logger(label: "caresync.http.test")
    ) {
        self.pipeline = RequestPipeline(responder: responder, headFilter: headFilter, logger: logger)
        self.configuration = configuration
    }

    /// Sends `request` and returns the response with its body collected.
    public func send(_ request: Request) async -> TestResponse {
        var context = pipeline.makeContext(for: request.head)
        if let refusal = await pipeline.filter(request.head, context: &context) {
            return await TestResponse(refusal, isHead: request.head.method == .head)
        }
        let response = await pipeline.handle(request, context: context, maxBodySize: configuration.maxBodySize)
        return await TestResponse(response, isHead: request.head.method == .head)
    }

    /// Sends a request built from its parts.
    public func send(
        _ method: HTTPRequest.Method, _ target: String, headers: HTTPFields = [:], body: [UInt8] = []
    ) async -> TestResponse {
        await send(Request(method: method, target: target, headers: headers, body: body))
    }
}

/// A response with its body fully read, for assertions.
public struct TestResponse: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// The header fields as the handler set them.
    public var headers: HTTPFields
    /// The whole body (empty for HEAD).
    public var body: [UInt8]
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Collects `response`'s body; a failing stream ends the body where it failed.
    init(_ response: Response, isHead: Bool) async {
        status = response.status
        headers = response.headers
        switch response.body {
        case .bytes(let bytes):
            body = isHead ? [] : bytes
        case .stream(let stream):
            var collected: [UInt8] = []
            var iterator = stream.makeAsyncIterator()
            // A stream that fails ends the body where it failed, as a truncated response would on the wire.
            while let piece = try? await iterator.next() { collected += piece }
            body = isHead ? [] : collected
        }
    }
}
