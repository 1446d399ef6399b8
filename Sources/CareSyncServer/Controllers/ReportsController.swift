import CareSyncHTTP
import Foundation
import CareSyncCore

/// Weekly reports: a therapist's reports of one patient, written as keyed writes, listed in pages, read whole.
struct ReportsController: Sendable {
    let gate: AccessGate
    let keyedWriter: KeyedWriter
    let store: any SyncStore
    let calls: StoreCalls
    let anchors: AnchorWire
    let clock: ServerClock
    let maxItemsPerRequest: Int
    let maxReportsPerPatient: Int

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/patients/{patientId}/weekly-reports", postReport),
            APIRoute(.get, "/v1/patients/{patientId}/weekly-reports", listReports),
            APIRoute(.get, "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}", getReport),
            APIRoute(.delete, "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}", deleteReport),
        ]
    }

    /// POST /v1/patients/{patientId}/weekly-reports: stored by the derived-identifier rules, or ignored.
    func postReport(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScopedWrite(request, context, action: "reports.upsert") { principal, patient, audit in
            let input = try ReportWire.decode(try request.jsonBody(), callerSource: principal.source,
                                              maxSamples: self.maxItemsPerRequest)
            try principal.requireWritable(input.samples.map(\.sample.type))
            let source = principal.source, now = self.clock.now()
            let render: @Sendable (WeeklyReportUpsertResult) -> Response = { result in
                Response.json([
                    "outcome": .string(result.outcome.rawValue),
                    "anchor": .string(self.anchors.encode(result.anchor)),
                    "report": ReportWire.encode(self.visible(result.report, to: principal)),
                ])
            }
            let reply = try await self.keyedWriter.write(request, principal: principal, operation: "report",
                audit: audit, count: input.samples.count,
                writer: { [maxReports = self.maxReportsPerPatient] w in
                    // Counted in the write's own transaction, so a patient's reports stay bounded.
                    if try w.reportCount(patient: patient, besides: input.syncIdentifier, of: source) >= maxReports {
                        throw SyncError.validationFailed([ValidationProblem(index: nil, field: "syncIdentifier",
                            message: "the patient holds \(maxReports) weekly reports, the most allowed; delete one or post a new version of an existing one")])
                    }
                    let (outcome, stored) = try w.upsertReport(input, patient: patient, source: source, now: now)
                    return WeeklyReportUpsertResult(outcome: outcome, anchor: try w.headAnchor(), report: stored)
                },
                render: render)
            return (reply, input.samples.count)
        }
    }

    /// GET /v1/patients/{patientId}/weekly-reports?from=&to=&limit=&cursor=&summary=: a page of the reports whose
    /// week starts in the range. A page holds at most `limit` reports and whole reports of at most the per-request
    /// item limit of samples together (at least one report), so no answer grows with the patient's history; `next`
    /// is the cursor of the following page, null on the last. `summary=true` leaves samples and charts out.
    func listReports(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "reports.list") { principal, patient in
            let query = try self.reportListQuery(request, patient: patient)
            let summary = try Self.booleanParameter(request, "summary") ?? false
            let unit = try Self.unitParameter(request)
            let store = self.store
            let page = try await self.calls.blocking { try store.reports(query) }
            let reports = page.reports.map { self.visible($0, to: principal) }
            let encoded = reports.map { summary ? ReportListWire.summary($0) : ReportWire.encode($0, unit: unit) }
            let reply = Response.json(["reports": .array(encoded), "next": .optional(page.next.map(ReportListWire.cursor))])
            return (reply, reports.count)
        }
    }

    /// The page a list request asks for: `from`, `to`, `limit` (1–500, default 100) and `cursor`, or 422 naming each bad one.
    func reportListQuery(_ request: Request, patient: String) throws -> ReportListQuery {
        var problems: [ValidationProblem] = []
        var days: [CalendarDay] = []
        for (field, fallback) in [("from", CalendarDay(year: 1, month: 1, day: 1)), ("to", CalendarDay(year: 9999, month: 12, day: 31))] {
            if let text = request.query(field) {
                if let d = CalendarDay(parsing: text) { days.append(d) }
                else { problems.append(ValidationProblem(index: nil, field: field, message: "must be a day YYYY-MM-DD")); days.append(fallback) }
            } else { days.append(fallback) }
        }
        var limit = 100
        if let text = request.query("limit") {
            if let n = Int(text), (1...500).contains(n) { limit = n }
            else { problems.append(ValidationProblem(index: nil, field: "limit", message: "must be an integer from 1 to 500")) }
        }
        var after: ReportPosition?
        if let text = request.query("cursor") {
            after = ReportListWire.position(text)
            if after == nil { problems.append(ValidationProblem(index: nil, field: "cursor", message: "must be a next cursor this server answered")) }
        }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
        return ReportListQuery(patient: patient, from: days[0], to: days[1], after: after, maxReports: limit,
                               maxSamples: maxItemsPerRequest)
    }

    /// A `true`/`false` query parameter, nil when absent; 422 for anything else.
    static func booleanParameter(_ request: Request, _ name: String) throws -> Bool? {
        guard let text = request.query(name) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw HTTPError.invalidParameter(name, "must be true or false")
        }
    }

    /// GET /v1/patients/{patientId}/weekly-reports/{syncIdentifier}?source=: the current version with its chart.
    /// A report is named by its identifier and its source: `source=` when given, else the caller's own, else the
    /// only source that has one; several and none of them the caller's is 409, so no writer can shadow another's.
    func getReport(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "reports.read") { principal, patient in
            let id = try context.parameter("syncIdentifier")
            let requested = request.query("source")
            if let requested, let problem = SourceRule.problem(requested) { throw HTTPError.invalidParameter("source", problem) }
            let store = self.store, own = principal.source
            let report = try await self.calls.blocking { () throws -> WeeklyReport? in
                if let requested { return try store.report(patient: patient, syncIdentifier: id, source: requested) }
                if let mine = try store.report(patient: patient, syncIdentifier: id, source: own) { return mine }
                let sources = try store.reportSources(patient: patient, syncIdentifier: id)
                guard sources.count <= 1 else {
                    throw HTTPError.conflict("Several sources have weekly report \(id) (\(sources.joined(separator: ", "))) "
                                             + "and none is yours; name one with source=.")
                }
                return try sources.first.flatMap { try store.report(patient: patient, syncIdentifier: id, source: $0) }
            }
            guard let report else { throw HTTPError.notFound("No weekly report \(id)" + (requested.map { " of source \($0)." } ?? ".")) }
            let unit = try Self.unitParameter(request)
            return (Response.json(ReportWire.encode(self.visible(report, to: principal), unit: unit)), report.samples.count)
        }
    }

    /// DELETE /v1/patients/{patientId}/weekly-reports/{syncIdentifier}: deletes the caller's report, tombstoning its samples.
    func deleteReport(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScopedWrite(request, context, action: "reports.delete") { principal, patient, audit in
            let id = try context.parameter("syncIdentifier")
            let source = principal.source, now = self.clock.now()
            let missing = HTTPError.notFound("No weekly report \(id) of this source.")
            let reply = try await self.keyedWriter.write(request, principal: principal, operation: "reportDelete", audit: audit, count: 1,
                writer: { w in
                    guard try w.deleteReport(patient: patient, syncIdentifier: id, source: source, now: now) else { throw missing }
                    return try w.headAnchor()
                },
                render: { anchor in Response.json(["anchor": .string(self.anchors.encode(anchor)), "outcome": "deleted"]) })
            return (reply, 1)
        }
    }

    /// The report without samples of types the caller may not read.
    func visible(_ report: WeeklyReport, to principal: Principal) -> WeeklyReport {
        var r = report
        r.samples = r.samples.filter { principal.mayRead($0.value.type) }
        return r
    }

    /// The `unit` query parameter, nil when absent; 422 for a string that is not a HealthKit unit.
    static func unitParameter(_ request: Request) throws -> HealthUnit? {
        guard let u = request.query("unit") else { return nil }
        do { return try HealthUnit.parse(u) } catch {
            throw HTTPError.invalidParameter("unit", "unit '\(u)' is not a HealthKit unit string (\(error))")
        }
    }
}
