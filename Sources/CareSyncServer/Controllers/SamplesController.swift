import CareSyncHTTP
import Foundation
import CareSyncCore

/// Samples: upserts and deletions of one patient's samples, each one keyed write (`KeyedWriter`).
struct SamplesController: Sendable {
    let gate: AccessGate
    let keyedWriter: KeyedWriter
    let anchors: AnchorWire
    let metrics: ServerMetrics
    let clock: ServerClock
    let maxItemsPerRequest: Int

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/patients/{patientId}/samples", postSamples),
            APIRoute(.post, "/v1/patients/{patientId}/samples/delete", deleteSamples),
        ]
    }

    /// POST /v1/patients/{patientId}/samples: one transaction; 422 with every bad index, nothing stored.
    func postSamples(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScopedWrite(request, context, action: "samples.upsert") { principal, patient, audit in
            let body = try request.jsonBody()
            guard let object = body.objectValue else { throw HTTPError.validation([ValidationProblem(index: nil, field: "", message: "the body must be a JSON object")]) }
            guard let items = object["samples"]?.arrayValue else {
                throw HTTPError.validation([ValidationProblem(index: nil, field: "samples", message: "an array of samples is required")])
            }
            guard items.count <= self.maxItemsPerRequest else {
                throw HTTPError.payloadTooLarge("At most \(self.maxItemsPerRequest) samples per request; nothing was stored.")
            }
            var problems: [ValidationProblem] = []
            var decoded: [SampleInput] = []
            decoded.reserveCapacity(items.count)
            let options = SampleWire.Options(callerSource: principal.source)
            for (i, item) in items.enumerated() {
                if let input = SampleWire.decode(item, index: i, options: options, problems: &problems) { decoded.append(input) }
            }
            guard problems.isEmpty else { throw HTTPError.validation(problems) }
            try principal.requireWritable(decoded.map(\.type))
            let inputs = decoded, source = principal.source, now = self.clock.now()
            let reply = try await self.keyedWriter.write(request, principal: principal, operation: "samples", audit: audit, count: items.count,
                writer: { w in
                    let results = try w.upsert(inputs, patient: patient, source: source, now: now)
                    return UpsertBatchResult(anchor: try w.headAnchor(), results: results)
                },
                render: { result in
                    Response.json(UpsertReplyWriter.body(result, anchor: self.anchors.encode(result.anchor)))
                },
                committed: { result in self.recordOutcomes(result.results) })
            return (reply, items.count)
        }
    }

    /// The answer to a delete request.
    func render(_ result: DeleteBatchResult) -> Response {
        Response.json([
            "anchor": .string(self.anchors.encode(result.anchor)),
            "results": .array(result.results.map { r in
                var o: [String: JSONValue] = ["outcome": .string(r.outcome.rawValue)]
                o["uuid"] = r.uuid.map { .string($0.uuidString) } ?? .null
                if let s = r.syncIdentifier { o["syncIdentifier"] = .string(s) }
                return .object(o)
            }),
        ])
    }

    /// Counts the ingested samples by outcome.
    func recordOutcomes(_ results: [UpsertItemResult]) {
        var inserted = 0, replaced = 0, ignored = 0
        for r in results {
            switch r.outcome {
            case .inserted: inserted += 1
            case .replaced: replaced += 1
            case .ignored: ignored += 1
            }
        }
        metrics.recordSamplesIngested(inserted, outcome: "inserted")
        metrics.recordSamplesIngested(replaced, outcome: "replaced")
        metrics.recordSamplesIngested(ignored, outcome: "ignored")
    }

    /// POST /v1/patients/{patientId}/samples/delete: own source only; every deletion leaves a tombstone.
    func deleteSamples(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScopedWrite(request, context, action: "samples.delete") { principal, patient, audit in
            let body = try request.jsonBody()
            guard let object = body.objectValue else { throw HTTPError.validation([ValidationProblem(index: nil, field: "", message: "the body must be a JSON object")]) }
            var problems: [ValidationProblem] = []
            var uuids: [UUID] = []
            var identifiers: [String] = []
            for field in ["uuids", "syncIdentifiers"] {
                guard let v = object[field], v != .null else { continue }
                guard let list = v.arrayValue else { problems.append(ValidationProblem(index: nil, field: field, message: "must be an array of strings")); continue }
                for (i, item) in list.enumerated() {
                    guard let s = item.stringValue else { problems.append(ValidationProblem(index: i, field: field, message: "must be a string")); continue }
                    if field == "uuids" {
                        if let u = UUID(uuidString: s) { uuids.append(u) } else { problems.append(ValidationProblem(index: i, field: field, message: "not a UUID")) }
                    } else if s.isEmpty { problems.append(ValidationProblem(index: i, field: field, message: "must not be empty")) }
                    else { identifiers.append(s) }
                }
            }
            if object["uuids"] == nil && object["syncIdentifiers"] == nil {
                problems.append(ValidationProblem(index: nil, field: "uuids", message: "give uuids and/or syncIdentifiers"))
            }
            guard problems.isEmpty else { throw HTTPError.validation(problems) }
            guard uuids.count + identifiers.count <= self.maxItemsPerRequest else {
                throw HTTPError.payloadTooLarge("At most \(self.maxItemsPerRequest) deletions per request; nothing was deleted.")
            }
            let targets = uuids, names = identifiers, source = principal.source, now = self.clock.now()
            let reply = try await self.keyedWriter.write(request, principal: principal, operation: "delete",
                audit: audit, count: targets.count + names.count,
                writer: { w in
                    // Another source's sample of a type the caller may not read is hidden, so it answers as unknown.
                    let results = try w.delete(uuids: targets, syncIdentifiers: names, patient: patient, source: source, now: now)
                        .map { r in
                            guard r.outcome == .notOwned, let type = r.type, !principal.mayRead(type) else { return r }
                            return DeleteItemResult(uuid: r.uuid, syncIdentifier: nil, outcome: .notFound)
                        }
                    // As in HealthKit, deleting a type needs the right to write it: refused, the transaction stores nothing.
                    let denied = results.enumerated().filter { item in
                        item.element.outcome == .deleted && item.element.type.map { !principal.mayWrite($0) } ?? false
                    }
                    guard denied.isEmpty else {
                        throw HTTPError.forbidden("This token may not delete some of these types; nothing was deleted.",
                            errors: denied.map { item in
                                let byUUID = item.offset < targets.count
                                return ValidationProblem(index: byUUID ? item.offset : item.offset - targets.count,
                                                         field: byUUID ? "uuids" : "syncIdentifiers",
                                                         message: "this token may not write \(item.element.type!.rawValue)")
                            })
                    }
                    return DeleteBatchResult(anchor: try w.headAnchor(), results: results)
                },
                render: { self.render($0) },
                committed: { result in
                    self.metrics.recordSamplesIngested(result.results.filter { $0.outcome == .deleted }.count, outcome: "deleted")
                })
            return (reply, targets.count + names.count)
        }
    }
}
