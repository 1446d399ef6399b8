import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A refusal from the server (RFC 9457 problem), with the answer's `Retry-After` and `X-Request-ID`.
public struct Problem: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    /// One entry of `errors`: the item (`index`) and field at fault.
    public struct FieldError: Codable, Sendable, Hashable {
        /// The position of the item in the request's array, or nil for the body or a parameter.
        public var index: Int?
        /// The body field, query parameter or header, or nil.
        public var field: String?
        /// What is wrong, for people.
        public var message: String
    }

    /// `https://caresync.example/problems/<code>`, an identifier.
    public var type: String
    /// A short fixed summary, for people.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// This occurrence, for people.
    public var detail: String
    /// What went wrong (`validationFailed`, `anchorExpired` …): branch on this.
    public var code: String
    /// Every problem of the request at once (often empty).
    public var errors: [FieldError]
    /// Seconds to wait before retrying (429, 503), from `Retry-After`.
    public var retryAfter: Int?
    /// The request id to quote when reporting the problem: the answer's `X-Request-ID` (the server echoes
    /// the one the client sent), else the one the client sent.
    public var requestID: String?

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, code, errors }

    /// A problem from its members.
    public init(type: String, title: String, status: Int, detail: String, code: String,
                errors: [FieldError] = [], retryAfter: Int? = nil, requestID: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.errors = errors
        self.retryAfter = retryAfter
        self.requestID = requestID
    }

    /// The problem an answer carries: its body if that is a problem, else one made from the status.
    static func from(status: Int, body: Data, headers: [AnyHashable: Any], sentID: String?) -> Problem {
        var problem = (try? JSONDecoder().decode(Problem.self, from: body)) ?? Problem(
            type: "about:blank", title: HTTPURLResponse.localizedString(forStatusCode: status), status: status,
            detail: String(decoding: body.prefix(500), as: UTF8.self), code: "http\(status)")
        problem.retryAfter = header("Retry-After", in: headers).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        problem.requestID = header("X-Request-ID", in: headers) ?? sentID
        return problem
    }

    /// A header's value, matched case-insensitively.
    static func header(_ name: String, in headers: [AnyHashable: Any]) -> String? {
        for (key, value) in headers where (key as? String)?.caseInsensitiveCompare(name) == .orderedSame {
            return value as? String
        }
        return nil
    }

    public var description: String {
        "\(status) \(code): \(detail)" + (requestID.map { " (request \($0))" } ?? "")
    }
}
