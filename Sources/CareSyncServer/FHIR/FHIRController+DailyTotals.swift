import CareSyncCore
import CareSyncHTTP
import Foundation

extension FHIRController {
    /// A search whose `code` asks for daily step totals (docs/fhir.md "Daily step totals"), the reach already checked: one
    /// page of the days with steps, in the patient's time zone; empty for a token that may not read step counts.
    func searchDailyTotals(_ parsed: ObservationSearchRequest, principal: Principal, base: String) async throws -> (Response, Int) {
        let query = parsed.query
        var collector = DailyTotalPageCollector(query: query)
        let bounds = query.storeBounds
        let empty = bounds.from.flatMap { from in bounds.to.map { from >= $0 } } ?? false
        if principal.mayRead(DailyTotalCode.type), !empty, let reader = try await dailyReader(query.patient) {
            collector = try await blocking {
                var collector = DailyTotalPageCollector(query: query)
                guard let span = try reader.span(from: bounds.from.map(SyncRules.date(milliseconds:)),
                                                 to: bounds.to.map(SyncRules.date(milliseconds:))),
                      let days = reader.days(of: span, within: bounds) else { return collector }
                try reader.totals(days, priority: DailyTotalReader.defaultPriority(span.sources)) { collector.offer($0) }
                return collector
            }
        }
        let page = collector.page()
        let next = page.hasMore ? page.totals.last.map { parsed.link(base: base, cursor: $0.day.description) } : nil
        let bundle = FHIRWire.searchset(page.totals, total: collector.total, base: base,
                                        selfLink: parsed.link(base: base, cursor: nil), nextLink: next)
        return (Response.fhir(bundle), page.totals.count)
    }

    /// GET /fhir/R4/Observation/{id} of a daily total: the patient's steps that day, when the patient is in reach, the
    /// caller may read step counts and the day has steps; else 404. Audited as a sample read.
    func readDailyTotal(_ id: DailyTotalID, principal: Principal) async throws -> Response {
        let access = self.access
        let patients = try await blocking { try AdminController.patientsInReach(of: principal, in: access).map(\.id) }
        guard principal.mayRead(DailyTotalCode.type), let patient = patients.first(where: id.names) else {
            try? await audit.commit(AuditScope(principal: principal, patient: nil, action: "fhir.observations.read")
                .record(count: 0, status: 404, time: clock.now()))
            throw FHIRError.notFound("No such Observation.")
        }
        return try await audited(AuditScope(principal: principal, patient: patient, action: "fhir.observations.read")) {
            guard let reader = try await dailyReader(patient) else { throw FHIRError.notFound("No such Observation.") }
            let total = try await blocking { () -> DailyTotal? in
                let start = id.day.start(in: reader.zone), end = id.day.adding(days: 1).start(in: reader.zone)
                guard let span = try reader.span(from: start, to: end) else { return nil }
                var found: DailyTotal?
                try reader.totals(id.day...id.day, priority: DailyTotalReader.defaultPriority(span.sources)) { t in
                    if t.day == id.day { found = t }
                }
                return found
            }
            guard let total else { throw FHIRError.notFound("No such Observation: the patient has no steps that day.") }
            return (Response.fhir(FHIRWire.dailyTotal(total)), 1)
        }
    }

    /// A reader of `patient`'s daily totals in its current time zone, or nil for no such patient.
    func dailyReader(_ patient: String) async throws -> DailyTotalReader? {
        let access = self.access
        guard let record = try await blocking({ try access.patient(id: patient) }) else { return nil }
        var reader = DailyTotalReader(store: store, patient: patient, zone: TimeZone(identifier: record.timeZone) ?? TimeZone(identifier: "UTC")!)
        reader.scanPage = limits.scanPage
        reader.windowDays = limits.dailyWindowDays
        return reader
    }
}
