import Foundation
import HTTPTypes

/// An HTTP response: status, ordered header fields and a body.
public struct Response: Sendable {
    /// The status code and reason phrase.
    public var status: HTTPResponse.Status
    /// The header fields; the server adds `Date`, `Content-Length` or `Transfer-Encoding`, and `Connection`.
    public var headers: HTTPFields
    /// The body: bytes, or a stream sent with chunked transfer coding.
    public var body: ResponseBody

    /// Creates a response.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response carrying already-encoded JSON bytes as `application/json`.
    public static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .bytes(bytes))
    }

    /// A response carrying already-encoded JSON `Data` as `application/json`.
    public static func json(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        json([UInt8](data), status: status, headers: headers)
    }

    /// A response carrying `value` encoded by `encoder` as `application/json`.
    public static func json<T: Encodable>(
        _ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], encoder: JSONEncoder = JSONEncoder()
    ) throws -> Response {
        json(try encoder.encode(value), status: status, headers: headers)
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: fields, body: .bytes(Array(text.utf8)))
    }

    /// The `application/problem+json` rendering of an error (RFC 9457).
    public static func problem(_ error: HTTPError) -> Response {
        error.response()
    }
}
