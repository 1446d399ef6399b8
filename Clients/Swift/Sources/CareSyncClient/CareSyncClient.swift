import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of one CareSync server with one bearer token.
///
/// Every request is retried by `retryPolicy` (see ``RetryPolicy``); a refusal is thrown as a ``Problem``.
/// Each logical request sends its own `X-Request-ID`, the same on every retry of it, so the server's log
/// lines of all its attempts carry one id; a ``Problem`` quotes it as `requestID`.
public final class CareSyncClient: Sendable {
    /// The server's base URL (`https://caresync.clinic.example`).
    public let baseURL: URL
    /// How failed requests are retried.
    public let retryPolicy: RetryPolicy
    private let token: String
    let session: URLSession

    /// A client for `baseURL` sending `token`; `session` defaults to one with a 70 s request timeout
    /// (long polls of up to 60 s set their own timeout of `wait` + 10 s).
    public init(baseURL: URL, token: String, session: URLSession? = nil, retryPolicy: RetryPolicy = .standard) {
        self.baseURL = baseURL
        self.token = token
        self.retryPolicy = retryPolicy
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 70
            self.session = URLSession(configuration: configuration)
        }
    }

    /// A request, before it is sent.
    struct Call {
        var method: String
        var path: [String]
        var query: [(String, String)] = []
        var body: Data?
        var idempotencyKey: String?
        var timeout: TimeInterval?
    }

    /// An answer: status, body and headers.
    struct Answer {
        var status: Int
        var body: Data
        var headers: [AnyHashable: Any]
    }

    /// Sends `call` with retries and decodes a 2xx body as `T`; throws ``Problem`` for a refusal.
    func send<T: Decodable>(_ call: Call, as type: T.Type) async throws -> T {
        let answer = try await send(call)
        return try JSONDecoder.careSync().decode(T.self, from: answer.body)
    }

    /// Sends `call`, retrying by the policy; returns a 2xx answer or throws ``Problem`` or the transport error.
    func send(_ call: Call) async throws -> Answer {
        var request = try makeRequest(call)
        let requestID = Self.newRequestID()
        request.setValue(requestID, forHTTPHeaderField: "X-Request-ID")
        var attempt = 1
        while true {
            let retryAfter: Int?
            do {
                let (data, response) = try await session.data(for: request)
                guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
                if (200..<300).contains(http.statusCode) {
                    return Answer(status: http.statusCode, body: data, headers: http.allHeaderFields)
                }
                let problem = Problem.from(status: http.statusCode, body: data, headers: http.allHeaderFields, sentID: requestID)
                guard RetryPolicy.isRetryable(status: problem.status), attempt < retryPolicy.maxAttempts else { throw problem }
                retryAfter = problem.retryAfter
            } catch let error where !(error is Problem) {
                guard RetryPolicy.isRetryable(error), attempt < retryPolicy.maxAttempts else { throw error }
                retryAfter = nil
            }
            try await Task.sleep(for: retryPolicy.delay(beforeRetry: attempt, retryAfter: retryAfter))
            attempt += 1
        }
    }

    /// A fresh request id: a lower-case UUID (the server keeps ids of 1–128 visible ASCII characters).
    static func newRequestID() -> String { UUID().uuidString.lowercased() }

    /// The URL request for `call`: path segments and query values percent-encoded (`/` as `%2F`, `+` as `%2B`).
    func makeRequest(_ call: Call) throws -> URLRequest {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += call.path.map { "/" + Self.percentEncode($0) }.joined()
        if !call.query.isEmpty {
            text += "?" + call.query.map { Self.percentEncode($0.0) + "=" + Self.percentEncode($0.1) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = call.method
        if !token.isEmpty { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = call.body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let key = call.idempotencyKey { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
        if let timeout = call.timeout { request.timeoutInterval = timeout }
        return request
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
