import CareSyncHTTP
import HTTPTypes

extension Response {
    /// The FHIR media type of every FHIR answer.
    static let fhirMediaType = "application/fhir+json"

    /// A FHIR resource as `application/fhir+json`.
    static func fhir(_ resource: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = fhirMediaType
        return Response(status: status, headers: fields, body: .bytes(resource.serialized()))
    }
}
