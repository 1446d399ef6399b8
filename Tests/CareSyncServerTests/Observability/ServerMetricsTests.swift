import Testing
@testable import CareSyncServer

@Suite struct ServerMetricsTests {
    @Test func expositionHasEveryMetricWithLabels() {
        let metrics = ServerMetrics()
        metrics.recordRequest(route: "/v1/patients/{patientId}/samples", method: "POST", status: 200,
                              duration: .milliseconds(7))
        metrics.recordRequest(route: "/v1/patients/{patientId}/samples", method: "POST", status: 200,
                              duration: .milliseconds(300))
        metrics.recordRequest(route: "/healthz", method: "GET", status: 200, duration: .microseconds(50))
        metrics.connectionOpened(); metrics.connectionOpened(); metrics.connectionClosed()
        metrics.longPollParked()
        metrics.recordDatabaseWrite(operation: "samples", duration: .milliseconds(3))
        metrics.recordSamplesIngested(5, outcome: "inserted")
        metrics.recordSamplesIngested(2, outcome: "ignored")
        metrics.feedPageServed(); metrics.feedPageServed(); metrics.feedPageServed()
        metrics.recordTombstonesPurged(4)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)

        #expect(text.contains(#"caresync_http_requests_total{route="/v1/patients/{patientId}/samples",method="POST",status="200"} 2"#), "\(text)")
        #expect(text.contains(#"caresync_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"caresync_http_request_duration_seconds_bucket{route="/v1/patients/{patientId}/samples",method="POST",le="0.01"} 1"#))
        #expect(text.contains(#"caresync_http_request_duration_seconds_bucket{route="/v1/patients/{patientId}/samples",method="POST",le="0.5"} 2"#))
        #expect(text.contains(#"caresync_http_request_duration_seconds_count{route="/v1/patients/{patientId}/samples",method="POST"} 2"#))
        #expect(text.contains("caresync_http_open_connections 1.0"))
        #expect(text.contains("caresync_feed_parked_long_polls 1.0"))
        #expect(text.contains(#"caresync_db_write_duration_seconds_count{operation="samples"} 1"#))
        #expect(text.contains(#"caresync_samples_ingested_total{outcome="inserted"} 5"#))
        #expect(text.contains(#"caresync_samples_ingested_total{outcome="ignored"} 2"#))
        #expect(text.contains("caresync_feed_pages_served_total 3"))
        #expect(text.contains("caresync_retention_tombstones_purged_total 4"))
        #expect(text.contains("# HELP caresync_http_requests_total"))
        #expect(text.contains("# TYPE caresync_http_request_duration_seconds histogram"))
    }

    @Test func aRouteRecorderCountsAsTheRegistryLookupDoesAndListsOnlyAskedRoutes() {
        let metrics = ServerMetrics()
        let samples = metrics.requests(route: "/v1/patients/{patientId}/samples", method: "POST")
        _ = metrics.requests(route: "/v1/never", method: "GET")
        samples.record(status: 200, duration: .milliseconds(7))
        samples.record(status: 200, duration: .milliseconds(300))
        samples.record(status: 400, duration: .milliseconds(1))
        metrics.recordRequest(route: "/v1/patients/{patientId}/samples", method: "POST", status: 200, duration: .milliseconds(2))
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"caresync_http_requests_total{route="/v1/patients/{patientId}/samples",method="POST",status="200"} 3"#), "\(text)")
        #expect(text.contains(#"caresync_http_requests_total{route="/v1/patients/{patientId}/samples",method="POST",status="400"} 1"#))
        #expect(text.contains(#"caresync_http_request_duration_seconds_count{route="/v1/patients/{patientId}/samples",method="POST"} 4"#))
        #expect(text.contains(#"caresync_http_request_duration_seconds_bucket{route="/v1/patients/{patientId}/samples",method="POST",le="0.01"} 3"#))
        #expect(!text.contains("/v1/never"))
    }

    @Test func separateInstancesDoNotShareCounts() {
        let first = ServerMetrics(), second = ServerMetrics()
        first.feedPageServed()
        #expect(String(decoding: first.exposition(), as: UTF8.self).contains("caresync_feed_pages_served_total 1"))
        #expect(String(decoding: second.exposition(), as: UTF8.self).contains("caresync_feed_pages_served_total 0"))
    }
}
