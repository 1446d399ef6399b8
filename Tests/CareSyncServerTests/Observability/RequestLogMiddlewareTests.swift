import CareSyncHTTP
import Logging
import Testing
@testable import CareSyncServer

@Suite struct RequestLogMiddlewareTests {
    @Test(arguments: [
        ("/healthz", "/healthz"), ("/metrics", "/metrics"), ("/openapi.json", "/openapi.json"),
        ("/v1/patients/P-77/samples", "/v1/patients/{patientId}/samples"),
        ("/v1/patients/P-77/samples/delete", "/v1/patients/{patientId}/samples/delete"),
        ("/v1/patients/P-77/changes", "/v1/patients/{patientId}/changes"),
        ("/v1/patients/P-77/statistics", "/v1/patients/{patientId}/statistics"),
        ("/v1/patients/P-77/weekly-reports", "/v1/patients/{patientId}/weekly-reports"),
        ("/v1/patients/P-77/weekly-reports/report-2020-W25", "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}"),
        ("/v1/patients/P-77/weekly-reports/a/b", "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}"),
        ("/v1/patients/P-77", "/v1/patients/{patientId}"), ("/v1/patients", "/v1/patients"), ("/v1/types", "/v1/types"),
        ("/v1/care-teams/T1/patients/P-77", "/v1/care-teams/{id}/patients/{id}"),
        ("/v1/patients/P-77/unknown", "other"), ("/etc/passwd", "other"), ("/", "other"), ("", "other"),
        ("/v1/P-77", "other"), ("/healthz/", "/healthz"),
        ("/v1/patients/P-77/changes/", "/v1/patients/{patientId}/changes"),
        ("/v1/patients/P-77/changes?anchor=P-77/x", "/v1/patients/{patientId}/changes"),
        ("/v1/patients/P-77é/changes", "/v1/patients/{patientId}/changes"),
    ])
    func routeTemplates(path: String, template: String) {
        #expect(RouteTemplate.of(path) == template)
        #expect(!RouteTemplate.of(path).contains("P-77"))
    }

    @Test func logsTemplateStatusAndDurationNeverThePath() async throws {
        var router = Router()
        router.get("/v1/patients/{patientId}/changes") { _, _ in .text("[]") }
        router.get("/boom") { _, _ in throw HTTPError.notFound("nope") }
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "test", format: .json, level: .info, sink: collector.sink)
        let client = InMemoryClient(responder: router.wrapped(by: RequestLogMiddleware()), logger: logger)

        #expect(await client.send(.get, "/v1/patients/P-1/changes?wait=0").status == .ok)
        #expect(await client.send(.get, "/boom").status == .notFound)

        let lines = collector.lines.filter { $0.contains("\"http.request\"") }
        #expect(lines.count == 2, "\(collector.lines)")
        #expect(lines.allSatisfy { !$0.contains("P-1") })
        #expect(lines.first?.contains(#""route":"/v1/patients/{patientId}/changes""#) == true, "\(lines)")
        #expect(lines.first?.contains(#""http.status":"200""#) == true)
        #expect(lines.last?.contains(#""route":"other""#) == true)
        #expect(lines.last?.contains(#""http.status":"404""#) == true)
        #expect(lines.allSatisfy { $0.contains("\"http.duration_us\"") && $0.contains("\"request.id\"") })
    }
}
