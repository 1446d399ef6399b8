import CareSyncCore

extension CareSyncAPI {
    /// GET /v1/patients/{patientId}/statistics: buckets of a statistics collection query.
    func getStatistics(_ request: APIRequest) async throws -> APIReply {
        try await patientScoped(request, action: "statistics.read") { _, _ in
            throw APIError.unavailable("Statistics are not wired yet.")
        }
    }
}
