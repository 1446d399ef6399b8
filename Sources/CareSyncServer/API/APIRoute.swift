/// One endpoint: method, path pattern with `{name}` parameters, and its handler.
public struct APIRoute: Sendable {
    /// The HTTP method, upper case.
    public var method: String
    /// The path pattern, such as `/v1/patients/{patientId}/samples`.
    public var pattern: String
    /// The handler.
    public var handler: @Sendable (APIRequest) async throws -> APIReply

    /// A route: method, pattern, handler.
    public init(_ method: String, _ pattern: String, _ handler: @escaping @Sendable (APIRequest) async throws -> APIReply) {
        self.method = method; self.pattern = pattern; self.handler = handler
    }
}

extension CareSyncAPI {
    /// Every endpoint of the API; the OpenAPI document lists exactly these.
    public var routes: [APIRoute] {
        [
            APIRoute("POST", "/v1/patients/{patientId}/samples", postSamples),
            APIRoute("POST", "/v1/patients/{patientId}/samples/delete", deleteSamples),
            APIRoute("GET", "/v1/patients/{patientId}/changes", getChanges),
            APIRoute("POST", "/v1/patients/{patientId}/weekly-reports", postReport),
            APIRoute("GET", "/v1/patients/{patientId}/weekly-reports", listReports),
            APIRoute("GET", "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}", getReport),
            APIRoute("DELETE", "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}", deleteReport),
            APIRoute("GET", "/v1/patients/{patientId}/statistics", getStatistics),
            APIRoute("GET", "/v1/types", listTypes),
            APIRoute("POST", "/v1/patients", createPatient),
            APIRoute("GET", "/v1/patients", listPatients),
            APIRoute("GET", "/v1/patients/{patientId}", getPatient),
            APIRoute("POST", "/v1/care-teams", createCareTeam),
            APIRoute("GET", "/v1/care-teams", listCareTeams),
            APIRoute("POST", "/v1/care-teams/{name}/patients", addCareTeamPatient),
            APIRoute("POST", "/v1/tokens", createToken),
            APIRoute("GET", "/v1/tokens", listTokens),
            APIRoute("DELETE", "/v1/tokens/{tokenId}", revokeToken),
            APIRoute("GET", "/v1/audit", listAudit),
            APIRoute("GET", "/v1/whoami", whoami),
            APIRoute("GET", "/healthz", healthz),
            APIRoute("GET", "/readyz", readyz),
            APIRoute("GET", "/metrics", metricsText),
            APIRoute("GET", "/openapi.json", openAPI),
        ]
    }
}
