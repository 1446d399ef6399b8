import HTTPTypes
import Logging

/// The part of request handling shared by the socket server and the in-memory client:
/// head filter, responder, error rendering.
struct RequestPipeline: Sendable {
    let responder: any HTTPResponder
    let headFilter: (any RequestHeadFilter)?
    let logger: Logger

    /// A fresh context for `head`, its logger tagged with the request id.
    func makeContext(for head: RequestHead) -> RequestContext {
        RequestContext(logger: logger, requestID: head.id)
    }

    /// Runs the head filter: nil when accepted, else the refusal to send.
    func filter(_ head: RequestHead, context: inout RequestContext) async -> Response? {
        guard let headFilter else { return nil }
        do {
            try await headFilter.acceptHead(head, context: &context)
            return nil
        } catch {
            return ErrorRenderer.response(for: error, requestID: head.id, logger: logger)
        }
    }

    /// Runs the responder; a thrown error becomes its rendering (or an opaque 500).
    func respond(_ request: Request, context: RequestContext) async -> Response {
        do {
            return try await responder.respond(to: request, context: context)
        } catch {
            return ErrorRenderer.response(for: error, requestID: request.head.id, logger: logger)
        }
    }

    /// Decodes the body (gzip) and responds; what the server and the in-memory client both run
    /// once the head is accepted.
    func handle(_ request: Request, context: RequestContext, maxBodySize: Int) async -> Response {
        let decoded: Request
        do {
            decoded = try Self.decodeBody(request, maxBodySize: maxBodySize)
        } catch {
            return error.response()
        }
        return await respond(decoded, context: context)
    }

    /// Inflates a `Content-Encoding: gzip` body under the body limit (a bomb is 413); any coding
    /// other than gzip or identity is 415. The inflated request no longer carries the field.
    static func decodeBody(_ request: Request, maxBodySize: Int) throws(HTTPError) -> Request {
        if request.body.count > maxBodySize { throw .payloadTooLarge("The request body is over the limit.") }
        let values: [String] = request.head.headers[values: .contentEncoding]
        let listed: [Substring] = values.flatMap { (value: String) in value.split(separator: ",") }
        let codings: [String] = listed.map { (coding: Substring) in String(coding.trimmingSpaces()).lowercased() }
            .filter { (coding: String) in coding != "identity" && !coding.isEmpty }
        guard !codings.isEmpty else { return request }
        guard codings.count == 1, codings[0] == "gzip" || codings[0] == "x-gzip" else {
            throw .unsupportedMediaType("Only gzip request bodies are accepted.")
        }
        var decoded = request
        do {
            decoded.body = try Gzip.decompress(request.body, limit: maxBodySize)
        } catch .tooLarge {
            throw .payloadTooLarge("The inflated request body is over the limit.")
        } catch {
            throw HTTPError.invalidJSON("The gzip request body does not inflate.")
        }
        decoded.head.headers[.contentEncoding] = nil
        return decoded
    }
}
