import CareSyncHTTP
import Logging
import Testing
@testable import CareSyncServer

@Suite struct MetricsMiddlewareTests {
    @Test(arguments: [
        ("/healthz", "/healthz"), ("/metrics", "/metrics"), ("/openapi.json", "/openapi.json"),
        ("/v1/patients/P-77/samples", "/v1/patients/{patientId}/samples"),
        ("/v1/patients/P-77/samples/delete", "/v1/patients/{patientId}/samples/delete"),
        ("/v1/patients/P-77/changes", "/v1/patients/{patientId}/changes"),
        ("/v1/patients/P-77/statistics", "/v1/patients/{patientId}/statistics"),
        ("/v1/patients/P-77/weekly-reports", "/v1/patients/{patientId}/weekly-reports"),
        ("/v1/patients/P-77/weekly-reports/report-2020-W25", "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}"),
        ("/v1/patients/P-77/weekly-reports/a/b", "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}"),
        ("/v1/patients/P-77", "/v1/patients/{patientId}"), ("/v1/patients", "/v1/patients"),
        ("/v1/care-teams/T1/patients/P-77", "/v1/care-teams/{id}/patients/{id}"),
        ("/v1/patients/P-77/unknown", "other"), ("/etc/passwd", "other"), ("/", "other"), ("", "other"),
        ("/v1/P-77", "other"),
    ])
    func routeTemplates(path: String, template: String) {
        #expect(RouteTemplate.of(path) == template)
        #expect(!RouteTemplate.of(path).contains("P-77"))
    }

    @Test func countsRequestsByTemplateAndRendersThrownErrors() async throws {
        var router = Router()
        router.get("/v1/patients/{patientId}/changes") { _, _ in .text("[]") }
        router.get("/boom") { _, _ in throw HTTPError.notFound("nope") }
        let metrics = ServerMetrics()
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "test", format: .json, level: .info, sink: collector.sink)
        let client = InMemoryClient(
            responder: router.wrapped(by: MetricsMiddleware(metrics: metrics)), logger: logger)

        #expect(await client.send(.get, "/v1/patients/P-1/changes?wait=0").status == .ok)
        #expect(await client.send(.get, "/v1/patients/P-2/changes").status == .ok)
        #expect(await client.send(.get, "/boom").status == .notFound)

        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"caresync_http_requests_total{route="/v1/patients/{patientId}/changes",method="GET",status="200"} 2"#), "\(text)")
        #expect(text.contains(#"caresync_http_requests_total{route="other",method="GET",status="404"} 1"#))
        #expect(!text.contains("P-1") && !text.contains("P-2"))

        let lines = collector.lines.filter { $0.contains("http.request") }
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { !$0.contains("P-1") && !$0.contains("P-2") })
        #expect(lines.first?.contains(#""route":"/v1/patients/{patientId}/changes""#) == true)
    }

    @Test func metricsResponseHasPrometheusContentType() {
        let metrics = ServerMetrics()
        metrics.feedPageServed()
        let response = metrics.response()
        #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(String(decoding: response.body.bytes ?? [], as: UTF8.self).contains("caresync_feed_pages_served_total 1"))
    }
}
