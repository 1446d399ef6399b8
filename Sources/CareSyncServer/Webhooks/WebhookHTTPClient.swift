import Foundation

/// POSTs webhook deliveries with libcurl (`OutgoingHTTP`), connecting only to the addresses the address guard checked for this attempt
/// (`CURLOPT_RESOLVE`: the name is not looked up again, yet the `Host` header, TLS SNI and the certificate check
/// still use it). HTTPS verifies against the system's trust store; a deadline covers the whole exchange; redirects
/// are not followed (a 3xx counts as a failed attempt); no proxy is used (it would make its own lookup). One fresh
/// connection per attempt: a kept-alive one could outlive the address it was checked for.
final class WebhookHTTPClient: Sendable {
    /// What one attempt came to: the status answered, or why there was none.
    struct Result: Sendable, Hashable {
        var status: Int?
        var error: String?
    }

    private let timeoutMilliseconds: Int

    /// A client whose every attempt ends within `timeout` (at least 1 ms).
    init(timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        timeoutMilliseconds = max(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000), 1)
    }

    /// POSTs `body` with `headers` to `target`, connecting to its checked addresses only; a cancelled task cancels
    /// the request. The transfer blocks a thread of its own (`OutgoingHTTP`).
    func post(_ target: WebhookAddressGuard.Target, body: [UInt8], headers: [(String, String)]) async -> Result {
        let answer = await OutgoingHTTP.send(OutgoingHTTP.Request(url: target.url, post: body, headers: headers, resolve: Self.resolveEntry(target),
                                                                  timeoutMilliseconds: timeoutMilliseconds))
        return Result(status: answer.status, error: answer.error)
    }

    /// The `CURLOPT_RESOLVE` entry pinning `target`'s host and port to its addresses (`host:port:a,[b]`), or nil for an
    /// IP literal, which libcurl never looks up.
    static func resolveEntry(_ target: WebhookAddressGuard.Target) -> String? {
        guard WebhookAddressGuard.literal(target.host) == nil else { return nil }
        let addresses = target.addresses.map { $0.count == 16 ? "[\(WebhookAddressGuard.format($0))]" : WebhookAddressGuard.format($0) }
        return "\(target.host):\(target.port):\(addresses.joined(separator: ","))"
    }
}
