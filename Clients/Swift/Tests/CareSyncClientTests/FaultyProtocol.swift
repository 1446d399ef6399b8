import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocol` between the client and the live server that injects faults, one per request in
/// order: answer 503 without forwarding, or forward and then drop the answer (the write is stored,
/// the client sees a lost connection). Requests past the script are forwarded untouched.
final class FaultyProtocol: URLProtocol {
    /// One request's fate.
    enum Fault: Sendable { case unavailable(retryAfter: Int), forwardThenDrop, pass }

    /// One request as it reached the protocol, and the request id its answer carried (when it got one).
    struct Seen {
        var method: String
        var url: URL?
        var idempotencyKey: String?
        var requestID: String?
        var answeredRequestID: String?
    }

    struct State {
        var script: [Fault] = []
        var requests: [Seen] = []
    }
    static let state = Locked(State())
    /// A plain session to the real server.
    static let upstream = URLSession(configuration: .ephemeral)

    /// A session whose requests go through this protocol, following `script`.
    static func session(script: [Fault]) -> URLSession {
        state.withLock { $0 = State(script: script) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [FaultyProtocol.self]
        return URLSession(configuration: configuration)
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func stopLoading() {}

    override func startLoading() {
        var forwarded = request
        if forwarded.httpBody == nil, let stream = request.httpBodyStream { forwarded.httpBody = Self.read(stream) }
        let (fault, position) = Self.state.withLock { state -> (Fault, Int) in
            state.requests.append(Seen(method: forwarded.httpMethod ?? "GET", url: forwarded.url,
                                       idempotencyKey: forwarded.value(forHTTPHeaderField: "Idempotency-Key"),
                                       requestID: forwarded.value(forHTTPHeaderField: "X-Request-ID")))
            return (state.script.isEmpty ? .pass : state.script.removeFirst(), state.requests.count - 1)
        }
        nonisolated(unsafe) let this = self
        let request = forwarded
        Task {
            switch fault {
            case .unavailable(let retryAfter):
                let body = Data(#"{"type":"https://caresync.example/problems/unavailable","title":"Service unavailable","status":503,"detail":"injected","code":"unavailable","errors":[]}"#.utf8)
                this.answer(HTTPURLResponse(url: request.url!, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: [
                    "Content-Type": "application/problem+json", "Retry-After": String(retryAfter)])!, body)
            case .forwardThenDrop:
                _ = try? await Self.upstream.data(for: request)
                this.client?.urlProtocol(this, didFailWithError: URLError(.networkConnectionLost))
            case .pass:
                do {
                    let (data, response) = try await Self.upstream.data(for: request)
                    let http = response as! HTTPURLResponse
                    Self.state.withLock { $0.requests[position].answeredRequestID = http.value(forHTTPHeaderField: "X-Request-ID") }
                    this.answer(http, data)
                } catch {
                    this.client?.urlProtocol(this, didFailWithError: error)
                }
            }
        }
    }

    private func answer(_ response: HTTPURLResponse, _ body: Data) {
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body)
        client?.urlProtocolDidFinishLoading(self)
    }

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = stream.read(&buffer, maxLength: buffer.count)
            if n <= 0 { break }
            data.append(buffer, count: n)
        }
        return data
    }
}

/// A value behind a lock (the tests also build on macOS 13, before `Mutex`).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
