import CareSyncCore
import CareSyncHTTP

/// Replica checksums: what a replica compares to prove it equals the server's feed.
struct ChecksumsController: Sendable {
    let gate: AccessGate
    let store: any SyncStore
    let calls: StoreCalls
    let anchors: AnchorWire

    /// Its endpoints.
    var routes: [APIRoute] {
        [APIRoute(.get, "/v1/patients/{patientId}/checksums", getChecksums)]
    }

    /// GET /v1/patients/{patientId}/checksums?anchor=: per type the caller may read, the count and digest sum of the
    /// samples live at the anchor (the head without one), so a replica proves it equals the server's.
    func getChecksums(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "checksums.read") { principal, patient in
            var anchor: Anchor?
            if let a = request.query("anchor"), !a.isEmpty { anchor = try self.anchors.decode(a) }
            let at = anchor, store = self.store
            let checksums = try await self.calls.blocking { try store.checksums(patient: patient, at: at) }
            // Hidden types are left out, as the feed leaves them out: a replica of a narrow token has none of them.
            var types: [String: JSONValue] = [:]
            for (type, figures) in checksums.types where principal.mayRead(type) {
                types[type.rawValue] = ["count": .number(Double(figures.count)), "sum": .string(figures.sumHex)]
            }
            let body: JSONValue = ["anchor": .string(self.anchors.encode(checksums.anchor)), "algorithm": "fnv1a64-sum",
                                   "types": .object(types)]
            return (Response.json(body), types.count)
        }
    }
}
