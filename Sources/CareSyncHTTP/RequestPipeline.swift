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
        var log = logger
        log[metadataKey: "request.id"] = .string(head.id)
        return RequestContext(logger: log)
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
}
