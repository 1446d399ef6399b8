import CareSyncCore
import CareSyncHTTP
import Foundation

/// The erasure of a patient (admins; docs/api.md "Erasing a patient"): every row of theirs removed in one transaction,
/// their tokens deleted and their waits ended, the receipt in the audit log.
struct ErasureController: Sendable {
    let gate: AccessGate
    let erasure: (any ErasureStore)?
    let calls: StoreCalls
    let clock: ServerClock
    /// Ends the parked long polls and open event streams of the tokens erased here, and tells this instance's
    /// observers of erasures (`CareSyncAPI` wires the proven reach and the pages read ahead to it).
    let notifier: ChangeNotifier

    /// The header that must repeat the patient id: an erasure is never one mistyped URL away.
    static let confirmation = "Confirm-Erase"

    /// Its endpoints.
    var routes: [APIRoute] {
        [APIRoute(.delete, "/v1/patients/{patientId}", erasePatient)]
    }

    /// DELETE /v1/patients/{patientId} with `Confirm-Erase: {patientId}` → 200 and the receipt; 422 without the
    /// confirmation, 404 for no such patient (or one erased before).
    func erasePatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let given = PathID.auditPatient(context.parameters["patientId"])
        return try await gate.adminScoped(request, context, action: "admin.patient.erase", patient: given) { principal in
            let id = try context.parameter("patientId")
            guard let confirmed = request.header(Self.confirmation) else {
                throw HTTPError.invalidParameter(Self.confirmation, "the header must repeat the patient id to erase the patient")
            }
            guard confirmed == id else {
                throw HTTPError.invalidParameter(Self.confirmation, "the header must be exactly the patient id of the path")
            }
            guard let erasure = self.erasure else { throw HTTPError.unavailable("Erasure is not available on this server.") }
            let erase = ErasureRequest(patient: id, tokenID: principal.tokenID, role: principal.role, time: self.clock.now())
            guard let receipt = try await self.calls.blocking({ try erasure.erase(erase) }) else {
                throw HTTPError.notFound("No such patient.")
            }
            // What this instance kept of the patient goes at once (other instances hear it from the store).
            self.notifier.erased(id)
            for token in receipt.tokenIDs { self.notifier.interrupt(token) }
            return Response.json(ErasureWire.encode(receipt))
        }
    }
}
