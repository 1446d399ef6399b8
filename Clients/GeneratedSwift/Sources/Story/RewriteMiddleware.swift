import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Changes a request on its way out, to send what a well-behaved generated client never would
/// (a body that is not JSON, a duplicate key, a header flood): the answer still goes through the generated client.
struct RewriteMiddleware: ClientMiddleware {
    /// Changes the request head and body in place.
    let rewrite: @Sendable (inout HTTPRequest, inout HTTPBody?) -> Void

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request, body = body
        rewrite(&request, &body)
        return try await next(request, body, baseURL)
    }

    /// Replaces the body with `text`, and the content type when `contentType` is given.
    static func body(_ text: [UInt8], contentType: String? = nil, contentEncoding: String? = nil) -> RewriteMiddleware {
        RewriteMiddleware { request, body in
            body = HTTPBody(text)
            if let contentType { request.headerFields[.contentType] = contentType }
            if let contentEncoding { request.headerFields[.contentEncoding] = contentEncoding }
            request.headerFields[.contentLength] = nil
        }
    }

    /// Adds `count` filler header fields.
    static func headerFlood(count: Int) -> RewriteMiddleware {
        RewriteMiddleware { request, _ in
            for n in 0..<count { request.headerFields.append(HTTPField(name: HTTPField.Name("X-Filler-\(n)")!, value: "x")) }
        }
    }
}
