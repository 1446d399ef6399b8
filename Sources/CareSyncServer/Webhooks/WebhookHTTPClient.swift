import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// POSTs webhook deliveries with Foundation's URLSession (libcurl on Linux): HTTPS with the system's trust store,
/// keep-alive, and a deadline for the whole exchange. Redirects are not followed (a redirect could lead past the
/// address guard); a 3xx counts as a failed attempt.
final class WebhookHTTPClient: Sendable {
    /// What one attempt came to: the status answered, or why there was none.
    struct Result: Sendable, Hashable {
        var status: Int?
        var error: String?
    }

    private let session: URLSession

    /// A client whose every attempt ends within `timeout`, in whole seconds of at least 1: URLSession on Linux
    /// truncates its timeouts to whole seconds, and one under a second fails requests at once.
    init(timeout: Duration) {
        let seconds = Double(max(timeout.components.seconds, 1))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// POSTs `body` with `headers` to `url`; a cancelled task cancels the request.
    func post(_ url: String, body: [UInt8], headers: [(String, String)]) async -> Result {
        guard let target = URL(string: url) else { return Result(status: nil, error: "not a URL") }
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let running = Mutex<URLSessionDataTask?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                let task = session.dataTask(with: request) { _, response, error in
                    if let http = response as? HTTPURLResponse {
                        continuation.resume(returning: Result(status: http.statusCode, error: nil))
                    } else {
                        continuation.resume(returning: Result(status: nil, error: Self.describe(error)))
                    }
                }
                running.withLock { $0 = task }
                task.resume()
            }
        } onCancel: {
            running.withLock { $0?.cancel() }
        }
    }

    /// A failure in a few words: `timed out`, `connection refused`, …
    static func describe(_ error: (any Error)?) -> String {
        guard let error = error as? URLError else { return error.map { "\(type(of: $0))" } ?? "no response" }
        switch error.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection lost"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot: return "TLS failed"
        case .cancelled: return "cancelled"
        default: return "URL error \(error.code.rawValue)"
        }
    }
}

/// Answers every redirect with "don't follow".
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: no state.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
