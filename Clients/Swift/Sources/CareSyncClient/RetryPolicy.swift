import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how long to wait before retrying a request.
///
/// Retried: network errors (the answer may be lost), 408, 429, 500 and 503. Never another 4xx: it
/// would fail again. The wait before retry *n* (from 1) is a random duration in
/// [0, min(`maxDelay`, `baseDelay` × 2^(n−1))] ("full jitter"), but never less than `Retry-After`.
/// Writes carry an `Idempotency-Key` kept across retries, so a retry never writes twice.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 disables retries.
    public var maxAttempts: Int
    /// The backoff's first step.
    public var baseDelay: Duration
    /// The backoff's cap (`Retry-After` may exceed it).
    public var maxDelay: Duration

    /// A policy from its fields.
    public init(maxAttempts: Int = 6, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(30)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The default: 6 attempts, 250 ms doubling up to 30 s.
    public static let standard = RetryPolicy()
    /// No retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// Whether a refusal with `status` is worth retrying unchanged.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || status == 500 || status == 503
    }

    /// Whether a transport error is worth retrying (not a cancellation).
    public static func isRetryable(_ error: any Error) -> Bool {
        if error is CancellationError { return false }
        if let urlError = error as? URLError { return urlError.code != .cancelled }
        return (error as NSError).domain == NSURLErrorDomain
    }

    /// The wait before retry number `retry` (1 for the first retry), at least `retryAfter` seconds.
    public func delay(beforeRetry retry: Int, retryAfter: Int?) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let cap = min(maxDelay, baseDelay * (1 << exponent))
        let capSeconds = Double(cap.components.seconds) + Double(cap.components.attoseconds) / 1e18
        let jittered = Duration.seconds(Double.random(in: 0...max(capSeconds, 0)))
        return max(jittered, .seconds(retryAfter ?? 0))
    }
}
