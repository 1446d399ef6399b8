/// The names of CareSync's Prometheus metrics, in one place so dashboards and code agree.
public enum MetricName {
    /// Counter of finished HTTP requests, labelled `route`, `method` and `status`.
    public static let httpRequests = "caresync_http_requests_total"
    /// Histogram of request durations in seconds, labelled `route` and `method`.
    public static let httpRequestDuration = "caresync_http_request_duration_seconds"
    /// Gauge of open client connections.
    public static let openConnections = "caresync_http_open_connections"
    /// Gauge of change-feed requests held open by `wait=`.
    public static let parkedLongPolls = "caresync_feed_parked_long_polls"
    /// Gauge of open change-feed event streams (`Accept: text/event-stream`).
    public static let openEventStreams = "caresync_feed_open_event_streams"
    /// Histogram of write-transaction durations in seconds, labelled `operation`.
    public static let databaseWriteDuration = "caresync_db_write_duration_seconds"
    /// Counter of samples written, labelled `outcome` (inserted, replaced, ignored, deleted).
    public static let samplesIngested = "caresync_samples_ingested_total"
    /// Counter of change-feed pages answered.
    public static let feedPagesServed = "caresync_feed_pages_served_total"
    /// Counter of change-feed pages answered from a read made while the page before was sent (`PagesAhead`).
    public static let feedPagesReadAhead = "caresync_feed_pages_read_ahead_total"
    /// Counter of connections turned away, labelled `reason` (`ConnectionRefusal`: cap, address, reserved).
    public static let connectionsRefused = "caresync_http_connections_refused_total"
    /// Counter of requests refused with 429 by a rate limit, labelled `reason` (token, failedAuth, tokenWaits).
    public static let rateLimited = "caresync_rate_limited_total"
    /// Counter of tombstones removed by the retention job.
    public static let tombstonesPurged = "caresync_retention_tombstones_purged_total"
    /// Counter of webhook delivery attempts, labelled `outcome` (delivered, retry, failed).
    public static let webhookAttempts = "caresync_webhook_attempts_total"
}
