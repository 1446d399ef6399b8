/// A store failure that passes by itself: the database is unreachable, restarting, failing over, or takes no
/// writes. The API answers it 503 `unavailable` with `Retry-After`; nothing was acknowledged, so the client
/// sends the request again (with its `Idempotency-Key`, for a write).
public protocol StoreUnavailability: Error {
    /// Whether this failure passes by itself; false for a bug or bad data (answered 500).
    var isStoreUnavailable: Bool { get }
}
