import CareSyncCore
import CareSyncHTTP
import Foundation

extension AdminController {
    /// PATCH /v1/patients/{patientId} `{"timeZone"?, "displayName"?}` (admin): the patient as updated → 200.
    func updatePatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let given = PathID.auditPatient(context.parameters["patientId"])
        return try await gate.adminScoped(request, context, action: "admin.patient.update", patient: given) { _ in
            let id = try context.parameter("patientId")
            let o = try request.jsonBody()
            guard let fields = o.objectValue else { throw HTTPError.validation([ValidationProblem(index: nil, field: "", message: "the body must be a JSON object")]) }
            for key in fields.keys where key != "timeZone" && key != "displayName" {
                throw HTTPError.invalidParameter(key, "not a field a patient update takes (timeZone, displayName)")
            }
            let zone = try Self.optionalString(o, "timeZone", "must be an IANA time zone name string")
            let name = try Self.optionalString(o, "displayName", "must be a string")
            let admin = self.admin
            let record = try await self.calls.blocking { try admin.updatePatient(id: id, timeZone: zone, displayName: name) }
            return Response.json(AccessWire.encode(record))
        }
    }

    /// The string member `key` of `body`, nil when absent or null; 422 naming `key` with `message` for another type.
    static func optionalString(_ body: JSONValue, _ key: String, _ message: String) throws -> String? {
        guard let value = body[key], value != .null else { return nil }
        guard let string = value.stringValue else { throw HTTPError.invalidParameter(key, message) }
        return string
    }
}
