import CCurl
import Foundation
import Synchronization

/// POSTs webhook deliveries with libcurl, connecting only to the addresses the address guard checked for this attempt
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

    /// libcurl's process-wide set-up, done once before the first handle.
    private static let initialized: Bool = caresync_curl_global_init() == CURLE_OK

    private let timeoutMilliseconds: Int

    /// A client whose every attempt ends within `timeout` (at least 1 ms).
    init(timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        timeoutMilliseconds = max(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000), 1)
    }

    /// POSTs `body` with `headers` to `target`, connecting to its checked addresses only; a cancelled task cancels
    /// the request. The transfer blocks a thread of its own.
    func post(_ target: WebhookAddressGuard.Target, body: [UInt8], headers: [(String, String)]) async -> Result {
        let cancelled = CancelFlag()
        let timeout = timeoutMilliseconds
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                Thread.detachNewThread {
                    continuation.resume(returning: Self.perform(target, body: body, headers: headers, timeout: timeout, cancelled: cancelled))
                }
            }
        } onCancel: {
            cancelled.flag.store(true, ordering: .relaxed)
        }
    }

    /// The `CURLOPT_RESOLVE` entry pinning `target`'s host and port to its addresses (`host:port:a,[b]`), or nil for an
    /// IP literal, which libcurl never looks up.
    static func resolveEntry(_ target: WebhookAddressGuard.Target) -> String? {
        guard WebhookAddressGuard.literal(target.host) == nil else { return nil }
        let addresses = target.addresses.map { $0.count == 16 ? "[\(WebhookAddressGuard.format($0))]" : WebhookAddressGuard.format($0) }
        return "\(target.host):\(target.port):\(addresses.joined(separator: ","))"
    }

    /// One blocking transfer.
    private static func perform(_ target: WebhookAddressGuard.Target, body: [UInt8], headers: [(String, String)], timeout: Int,
                                cancelled: CancelFlag) -> Result {
        guard initialized, let handle = curl_easy_init() else { return Result(status: nil, error: "libcurl unavailable") }
        defer { curl_easy_cleanup(handle) }
        var lists: [UnsafeMutablePointer<curl_slist>] = []
        defer { lists.forEach { curl_slist_free_all($0) } }
        func list(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
            var list: UnsafeMutablePointer<curl_slist>?
            for line in lines { list = curl_slist_append(list, line) }
            if let list { lists.append(list) }
            return list
        }
        var ok = true
        func set(_ code: CURLcode) { ok = ok && code == CURLE_OK }
        set(caresync_curl_setopt_string(handle, CURLOPT_URL, target.url))
        set(caresync_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(caresync_curl_setopt_string(handle, CURLOPT_PROXY, ""))
        if let entry = resolveEntry(target) { set(caresync_curl_setopt_list(handle, CURLOPT_RESOLVE, list([entry]))) }
        set(caresync_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(caresync_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1))
        set(caresync_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1))
        set(caresync_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(caresync_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeout))
        set(caresync_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout))
        set(caresync_curl_setopt_long(handle, CURLOPT_POST, 1))
        set(caresync_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        (body + [0]).withUnsafeBytes { bytes in   // a NUL after it: never a nil pointer, even for an empty body
            set(caresync_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)))
        }
        // `Expect:` empty: no 100-continue round trip.
        set(caresync_curl_setopt_list(handle, CURLOPT_HTTPHEADER, list(headers.map { "\($0.0): \($0.1)" } + ["Expect:"])))
        set(caresync_curl_setopt_write(handle) { _, size, count, _ in size * count })   // the answer's body is not kept
        set(caresync_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        set(caresync_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(cancelled).toOpaque()))
        set(caresync_curl_setopt_xferinfo(handle) { data, _, _, _, _ in
            guard let data else { return 0 }
            return Unmanaged<CancelFlag>.fromOpaque(data).takeUnretainedValue().flag.load(ordering: .relaxed) ? 1 : 0
        })
        guard ok else { return Result(status: nil, error: "libcurl refused an option") }
        let code = withExtendedLifetime(cancelled) { curl_easy_perform(handle) }
        guard code == CURLE_OK else { return Result(status: nil, error: describe(code)) }
        var status = 0
        guard caresync_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0 else {
            return Result(status: nil, error: "no response")
        }
        return Result(status: status, error: nil)
    }

    /// A failure in a few words: `timed out`, `connection refused`, …
    static func describe(_ code: CURLcode) -> String {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: "timed out"
        case CURLE_COULDNT_CONNECT: "connection refused"
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: "connection lost"
        case CURLE_COULDNT_RESOLVE_HOST: "host not found"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE: "TLS failed"
        case CURLE_ABORTED_BY_CALLBACK: "cancelled"
        default: "curl error \(code.rawValue)"
        }
    }
}

/// Set when the attempt's task is cancelled; libcurl's progress callback reads it and aborts the transfer.
private final class CancelFlag: Sendable {
    let flag = Atomic<Bool>(false)
}
