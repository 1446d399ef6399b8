import CareSyncHTTP
import HTTPTypes

/// One endpoint: method, path pattern with `{name}` parameters, and its handler.
public struct APIRoute: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path pattern, such as `/v1/patients/{patientId}/samples`.
    public var pattern: String
    /// The handler: the HTTP request and the API's context in, the response out; refusals are thrown `HTTPError`s.
    public var handler: @Sendable (Request, APIContext) async throws -> Response

    /// A route: method, pattern, handler.
    public init(_ method: HTTPRequest.Method, _ pattern: String,
                _ handler: @escaping @Sendable (Request, APIContext) async throws -> Response) {
        self.method = method; self.pattern = pattern; self.handler = handler
    }
}
extension CareSyncAPI {
    /// Every endpoint of the API; the OpenAPI document lists exactly these.
    public var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/patients/{patientId}/samples", postSamples),
            APIRoute(.post, "/v1/patients/{patientId}/samples/delete", deleteSamples),
            APIRoute(.get, "/v1/patients/{patientId}/changes", getChanges),
            APIRoute(.get, "/v1/patients/{patientId}/checksums", getChecksums),
            APIRoute(.post, "/v1/patients/{patientId}/weekly-reports", postReport),
            APIRoute(.get, "/v1/patients/{patientId}/weekly-reports", listReports),
            APIRoute(.get, "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}", getReport),
            APIRoute(.delete, "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}", deleteReport),
            APIRoute(.get, "/v1/patients/{patientId}/statistics", getStatistics),
            APIRoute(.get, "/v1/patients/{patientId}/statistics/changes", getStatisticsChanges),
            APIRoute(.get, "/v1/types", listTypes),
            APIRoute(.post, "/v1/patients", createPatient),
            APIRoute(.get, "/v1/patients", listPatients),
            APIRoute(.get, "/v1/patients/{patientId}", getPatient),
            APIRoute(.post, "/v1/care-teams", createCareTeam),
            APIRoute(.get, "/v1/care-teams", listCareTeams),
            APIRoute(.post, "/v1/care-teams/{name}/patients", addCareTeamPatient),
            APIRoute(.post, "/v1/tokens", createToken),
            APIRoute(.get, "/v1/tokens", listTokens),
            APIRoute(.delete, "/v1/tokens/{tokenId}", revokeToken),
            APIRoute(.get, "/v1/audit", listAudit),
            APIRoute(.post, "/v1/webhooks", createWebhook),
            APIRoute(.get, "/v1/webhooks", listWebhooks),
            APIRoute(.get, "/v1/webhooks/{webhookId}", getWebhook),
            APIRoute(.delete, "/v1/webhooks/{webhookId}", deleteWebhook),
            APIRoute(.post, "/v1/webhooks/{webhookId}/pause", pauseWebhook),
            APIRoute(.post, "/v1/webhooks/{webhookId}/resume", resumeWebhook),
            APIRoute(.post, "/v1/webhooks/{webhookId}/replay", replayWebhook),
            APIRoute(.get, "/v1/whoami", whoami),
            APIRoute(.get, "/healthz", healthz),
            APIRoute(.get, "/readyz", readyz),
            APIRoute(.get, "/metrics", metricsText),
            APIRoute(.get, "/openapi.json", openAPI),
        ] + fhir.routes
    }
}
