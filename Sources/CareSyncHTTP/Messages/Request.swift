import Foundation
import HTTPTypes

/// A complete HTTP request: its head and its body, already de-chunked and gunzipped.
@dynamicMemberLookup
public struct Request: Sendable {
    /// The request line, headers and connection facts.
    public var head: RequestHead
    /// The body bytes (empty when there is none). Gzip request bodies arrive inflated.
    public var body: [UInt8]

    /// Creates a request from a head and a body.
    public init(head: RequestHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    /// Creates a request, mostly for in-memory tests: `Request(method: .get, target: "/v1/x?a=1")`.
    public init(
        method: HTTPRequest.Method, target: String, headers: HTTPFields = [:], body: [UInt8] = [],
        remoteAddress: String? = nil, id: String = RequestIDGenerator.shared.next()
    ) {
        self.head = RequestHead(
            method: method, target: target, headers: headers, remoteAddress: remoteAddress, id: id,
            contentLength: body.count)
        self.body = body
    }

    /// Reads head fields directly: `request.method`, `request.path`, `request.headers`, `request.id` …
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<RequestHead, T>) -> T {
        get { head[keyPath: keyPath] }
        set { head[keyPath: keyPath] = newValue }
    }

    /// The first value of the query item `name`, or nil.
    public func queryValue(_ name: String) -> String? { head.queryValue(name) }

    /// The body as `Data`, for `JSONDecoder`.
    public var bodyData: Data { Data(body) }
}
