import CareSyncHTTP
import HTTPTypes

/// A FHIR refusal: answered as an OperationOutcome with its status (docs/fhir.md, "Errors").
struct FHIRError: Error, Sendable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// The OperationOutcome issue code (`invalid`, `not-found`, `login`, `not-supported`, `forbidden`).
    var issue: String
    /// What went wrong, for a person.
    var diagnostics: String
    /// Extra header fields (`WWW-Authenticate` on 401).
    var headers: HTTPFields = [:]

    /// 400 `invalid`: a malformed or missing search parameter.
    static func invalid(_ diagnostics: String) -> FHIRError { FHIRError(status: .badRequest, issue: "invalid", diagnostics: diagnostics) }
    /// 400 `not-supported`: a parameter this server does not support, under `Prefer: handling=strict`.
    static func notSupported(_ diagnostics: String) -> FHIRError {
        FHIRError(status: .badRequest, issue: "not-supported", diagnostics: diagnostics)
    }
    /// 404 `not-found`: no such resource, or a patient outside the caller's reach.
    static func notFound(_ diagnostics: String) -> FHIRError { FHIRError(status: .notFound, issue: "not-found", diagnostics: diagnostics) }

    /// The FHIR form of an API refusal (401, 403, 404, 400, 410, 422); nil for the ones answered as problems (429, 503, 500).
    static func from(_ error: HTTPError) -> FHIRError? {
        switch error.status.code {
        case 401: return FHIRError(status: error.status, issue: "login", diagnostics: error.detail, headers: error.headers)
        case 403: return FHIRError(status: error.status, issue: "forbidden", diagnostics: error.detail, headers: error.headers)
        case 404: return FHIRError(status: error.status, issue: "not-found", diagnostics: error.detail, headers: error.headers)
        case 400, 422: return FHIRError(status: .badRequest, issue: "invalid", diagnostics: error.detail, headers: error.headers)
        case 410: return FHIRError(status: error.status, issue: "invalid", diagnostics: error.detail, headers: error.headers)
        default: return nil
        }
    }

    /// The OperationOutcome answer.
    var response: Response { Response.fhir(FHIRWire.operationOutcome(self), status: status, headers: headers) }
}
