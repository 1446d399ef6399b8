import CCurl
import Foundation
import Synchronization

/// The server's one outgoing HTTP client, over libcurl: webhook deliveries (`WebhookHTTPClient`) and the OpenID
/// Connect provider's discovery, JWKS and token requests. Redirects are never followed, no proxy is used, HTTPS
/// verifies against the system's trust store, a deadline covers the whole exchange, and every transfer uses a fresh
/// connection on a thread of its own while it runs (`ThreadPerTask` reuses idle threads); a cancelled task cancels it.
enum OutgoingHTTP {
    /// One request.
    struct Request: Sendable {
        /// The absolute http:// or https:// URL.
        var url: String
        /// GET, or POST with `body`.
        var post: [UInt8]?
        /// Header lines, in order.
        var headers: [(String, String)] = []
        /// A `CURLOPT_RESOLVE` entry pinning the host to checked addresses (webhooks), or nil to look it up.
        var resolve: String?
        /// The whole exchange's deadline in milliseconds (at least 1).
        var timeoutMilliseconds: Int
        /// The most answer bytes kept; a longer answer fails the transfer. 0: the answer's body is discarded.
        var maxResponseBytes: Int = 0
    }

    /// What one transfer came to: the status and body answered, or why there was none.
    struct Response: Sendable, Hashable {
        /// The HTTP status, when an answer came.
        var status: Int?
        /// The body kept (up to `maxResponseBytes`).
        var body: [UInt8] = []
        /// Why there was no answer: `timed out`, `connection refused`, …
        var error: String?
    }

    /// libcurl's process-wide set-up, done once before the first handle.
    private static let initialized: Bool = caresync_curl_global_init() == CURLE_OK

    /// Where blocking transfers run: each on a thread of its own, threads reused.
    private static let transfers = ThreadPerTask()

    /// Performs `request` on a thread of its own while it runs.
    static func send(_ request: Request) async -> Response {
        let sink = Sink(limit: request.maxResponseBytes)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Response, Never>) in
                transfers.run { continuation.resume(returning: perform(request, sink: sink)) }
            }
        } onCancel: {
            sink.cancelled.store(true, ordering: .relaxed)
        }
    }

    /// One blocking transfer.
    private static func perform(_ request: Request, sink: Sink) -> Response {
        guard initialized, let handle = curl_easy_init() else { return Response(error: "libcurl unavailable") }
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
        set(caresync_curl_setopt_string(handle, CURLOPT_URL, request.url))
        set(caresync_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(caresync_curl_setopt_string(handle, CURLOPT_PROXY, ""))
        if let entry = request.resolve { set(caresync_curl_setopt_list(handle, CURLOPT_RESOLVE, list([entry]))) }
        set(caresync_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(caresync_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1))
        set(caresync_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1))
        set(caresync_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(caresync_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(request.timeoutMilliseconds, 1)))
        set(caresync_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(request.timeoutMilliseconds, 1)))
        if let body = request.post {
            set(caresync_curl_setopt_long(handle, CURLOPT_POST, 1))
            set(caresync_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            (body + [0]).withUnsafeBytes { bytes in   // a NUL after it: never a nil pointer, even for an empty body
                set(caresync_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)))
            }
        }
        // `Expect:` empty: no 100-continue round trip.
        set(caresync_curl_setopt_list(handle, CURLOPT_HTTPHEADER, list(request.headers.map { "\($0.0): \($0.1)" } + ["Expect:"])))
        let opaque = Unmanaged.passUnretained(sink).toOpaque()
        set(caresync_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, opaque))
        set(caresync_curl_setopt_write(handle) { data, size, count, context in
            guard let context else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard sink.limit > 0 else { return length }   // the answer's body is not kept
            guard let data, sink.bytes.count + length <= sink.limit else { return 0 }   // too long: the transfer fails
            data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
            return length
        })
        set(caresync_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        set(caresync_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, opaque))
        set(caresync_curl_setopt_xferinfo(handle) { data, _, _, _, _ in
            guard let data else { return 0 }
            return Unmanaged<Sink>.fromOpaque(data).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
        })
        guard ok else { return Response(error: "libcurl refused an option") }
        let code = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        guard code == CURLE_OK else { return Response(error: code == CURLE_WRITE_ERROR ? "answer too long" : describe(code)) }
        var status = 0
        guard caresync_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0 else {
            return Response(error: "no response")
        }
        return Response(status: status, body: sink.bytes)
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

/// Where one transfer's answer goes, and its cancel flag (set when the task is cancelled; libcurl's progress callback
/// reads it and aborts). `bytes` is touched only by the transfer's own thread, and read after it ended.
private final class Sink: @unchecked Sendable {
    let limit: Int
    var bytes: [UInt8] = []
    let cancelled = Atomic<Bool>(false)
    init(limit: Int) { self.limit = limit }
}
