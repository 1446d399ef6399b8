import CareSyncHTTP
import CareSyncCore
import Foundation
import HTTPTypes

/// A care team's monthly worksheet: per patient, each 30-day period ending in the month with its days with data, and
/// the month's review minutes; JSON, or CSV with `Accept: text/csv` (docs/monitoring.md). A patient taken off the team
/// stays on the sheets of the months through the one they left in, with their figures as they stood when they left.
struct WorksheetController: Sendable {
    let gate: AccessGate
    let store: any SyncStore
    let access: any AccessStore
    /// Nil when the server was built without one: the route exists and answers 503.
    let monitoring: (any MonitoringStore)?
    let calls: StoreCalls
    let clock: ServerClock

    /// Its endpoints.
    var routes: [APIRoute] { [APIRoute(.get, "/v1/care-teams/{name}/worksheet", getWorksheet)] }

    /// GET /v1/care-teams/{name}/worksheet?month=YYYY-MM: a therapist of the team only (404 otherwise).
    func getWorksheet(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await gate.authenticate(request, context)
        let refused = AuditScope(principal: principal, patient: nil, action: "careTeam.worksheet.read")
        do {
            let name = try context.parameter("name")
            guard principal.role == .therapist, principal.token.careTeams.contains(name) else { throw HTTPError.notFound("No such care team.") }
            guard let monitoring else { throw HTTPError.unavailable("Monitoring is not available on this server.") }
            let text = request.query("month")
            guard let text, text.utf8.count == 7, let first = CalendarDay(parsing: text + "-01") else {
                throw HTTPError.invalidParameter("month", "is required: a month, YYYY-MM")
            }
            let (_, last) = try MonitoringController.month(text, default: first)
            let reader = MonitoringReader(store: store, access: access, monitoring: monitoring), access = self.access, now = clock.now()
            let rows = try await calls.blocking { () throws -> [WorksheetRow]? in
                guard let members = try access.careTeamMembers(name) else { return nil }
                let departures = try access.careTeamDepartures(name), devices = TokenRecord.devicesByPatient(try access.tokens())
                let readable = principal.readable(nil)
                return try access.patients().compactMap { patient in
                    let devices = devices[patient.id] ?? []
                    if members[patient.id] != nil {
                        return try reader.worksheetRow(of: patient, devices: devices, readable: readable, now: now, month: first, through: last)
                    }
                    guard let left = departures[patient.id] else { return nil }
                    return try reader.departedWorksheetRow(of: patient, left: left, devices: devices, readable: readable, month: first, through: last)
                }
            }
            guard let rows else { throw HTTPError.notFound("No such care team.") }
            let records = rows.map { AuditScope(principal: principal, patient: $0.patient, action: "worksheet.read").record(count: 1, status: 200, time: now) }
            do { try await access.commitAudit(records) } catch {
                throw HTTPError.unavailable("The access could not be recorded in the audit log, so it was not answered; retry later.")
            }
            if Self.wantsCSV(request) {
                var headers = HTTPFields()
                headers[.contentType] = "text/csv; charset=utf-8"
                headers[.contentDisposition] = "attachment; filename=\"worksheet-\(name)-\(text).csv\""
                return Response(headers: headers, body: .bytes(Array(WorksheetCSV.render(rows, month: text).utf8)))
            }
            return Response.json(["careTeam": .string(name), "month": .string(text), "patients": .array(rows.map(WorksheetWire.encode))])
        } catch {
            try? await gate.audit.commit(refused.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
    }

    /// Whether `Accept` prefers `text/csv` to JSON (by q-value; equal values choose CSV).
    static func wantsCSV(_ request: Request) -> Bool {
        guard let accept = request.header("Accept") else { return false }
        var csv = 0.0, json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let media = parts.first else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if media == "text/csv" { csv = max(csv, q) } else if media == "application/json" { json = max(json, q) }
        }
        return csv > 0 && csv >= json
    }
}

/// Worksheet rows as JSON.
enum WorksheetWire {
    /// One patient's row.
    static func encode(_ row: WorksheetRow) -> JSONValue {
        ["patient": .string(row.patient),
         "periods": .array(row.periods.map { p in
            ["episode": .integer(p.episode), "number": .integer(Int64(p.period.number)), "firstDay": .string(p.period.first.description),
             "endDay": .string(p.endDay.description), "state": .string(p.period.state.rawValue),
             "daysWithData": .integer(Int64(p.period.daysWithData))]
         }),
         "minutes": ["total": .integer(Int64(row.minutes.total)), "band": .string(row.minutes.band.rawValue)],
         "leftTeamOn": row.leftTeamOn.map { .string($0.description) } ?? .null]
    }
}
