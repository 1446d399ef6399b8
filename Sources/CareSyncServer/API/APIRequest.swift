/// The parts of an HTTP request the API reads, independent of the socket layer.
public struct APIRequest: Sendable {
    /// The method, upper case.
    public var method: String
    /// The path, percent-encoded, without the query.
    public var path: String
    /// Query items in order, percent-decoded.
    public var query: [(name: String, value: String)]
    /// Header fields in order; names compare case-insensitively.
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, already inflated if it was gzip.
    public var body: [UInt8]
    /// Decoded path parameters of the matched route.
    public var parameters: [String: String]
    /// The request id, for logs.
    public var id: String
    /// The caller, when the head filter already authenticated it.
    public var principal: Principal?

    /// A request from its parts (tests build them directly).
    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
                body: [UInt8] = [], parameters: [String: String] = [:], id: String = "", principal: Principal? = nil) {
        self.method = method; self.path = path; self.query = query; self.headers = headers
        self.body = body; self.parameters = parameters; self.id = id; self.principal = principal
    }

    /// The first value of a header, or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
    /// The first value of a query item, or nil.
    public func query(_ name: String) -> String? { query.first { $0.name == name }?.value }
    /// A list parameter: its comma-separated items, from one occurrence (`types=a,b`) or several (`types=a&types=b`,
    /// as clients that ignore `explode: false` send it), joined with commas; nil when absent.
    public func queryList(_ name: String) -> String? {
        let values = query.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ",")
    }
    /// A path parameter; a missing one is a 404.
    public func parameter(_ name: String) throws(APIError) -> String {
        guard let v = parameters[name] else { throw APIError.notFound() }
        return v
    }
}

/// What the API answers, independent of the socket layer.
public struct APIReply: Sendable {
    /// The HTTP status.
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]
    /// A body sent piece by piece instead of `body` (an event stream), chunked.
    public var stream: AsyncThrowingStream<[UInt8], any Error>?

    /// A reply from its parts.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                stream: AsyncThrowingStream<[UInt8], any Error>? = nil) {
        self.status = status; self.headers = headers; self.body = body; self.stream = stream
    }

    /// A JSON answer.
    public static func json(_ value: JSONValue, status: Int = 200, headers: [(name: String, value: String)] = []) -> APIReply {
        APIReply(status: status, headers: [("Content-Type", "application/json")] + headers, body: value.serialized())
    }
}

import Foundation
