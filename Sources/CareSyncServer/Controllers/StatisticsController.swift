import CareSyncHTTP
import CareSyncCore
import Foundation

/// Statistics: `HKStatisticsCollectionQuery` on the server, and which of its buckets changed since an anchor.
struct StatisticsController: Sendable {
    let gate: AccessGate
    let store: any SyncStore
    let calls: StoreCalls
    let anchors: AnchorWire
    /// The page size of the change reads that find the touched buckets.
    let pageLimit: Int

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/v1/patients/{patientId}/statistics", getStatistics),
            APIRoute(.get, "/v1/patients/{patientId}/statistics/changes", getStatisticsChanges),
        ]
    }

    /// GET /v1/patients/{patientId}/statistics: `HKStatisticsCollectionQuery` on the server.
    func getStatistics(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "statistics.read") { principal, patient in
            var query = try Self.statisticsQuery(request)
            // A type the caller may not read answers as if it had no samples, as HealthKit hides read denial.
            if !principal.mayRead(query.type) { query.sources = [] }
            // A pair counts only when the token may read the whole pair, as in the feed and checksums.
            query.correlations = principal.readableCorrelations(of: query.type)
            let q = query
            let store = self.store
            let collection = try await self.calls.blocking { try store.statistics(patient: patient, query: q) }
            return (Response.json(StatisticsWire.encode(collection)), collection.buckets.count)
        }
    }

    /// Reads the query parameters; every malformed one is a problem in one 422.
    static func statisticsQuery(_ request: Request) throws -> StatisticsQuery {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        func list(_ name: String) -> [String]? {
            request.queryList(name).map { $0.split(separator: ",").map { String($0.trimmingSpaces()) }.filter { !$0.isEmpty } }
        }
        func date(_ name: String, required: Bool) -> Date? {
            guard let text = request.query(name) else { if required { fail(name, "is required (RFC 3339)") }; return nil }
            guard let d = RFC3339.parse(text) else { fail(name, "must be an RFC 3339 date-time with an offset or Z"); return nil }
            return d
        }
        var type: SampleType?
        if let t = request.query("type") { type = SampleType(rawValue: t); if type == nil { fail("type", "unknown sample type '\(t)'") } }
        else { fail("type", "is required") }
        let start = date("start", required: true), end = date("end", required: true), anchorDate = date("anchorDate", required: false)
        var interval: StatisticsInterval?
        if let i = request.query("interval") {
            interval = StatisticsInterval(rawValue: i)
            if interval == nil { fail("interval", "must be hour, day, week or month") }
        } else { fail("interval", "is required: hour, day, week or month") }
        var options: StatisticsOptions = []
        if let names = list("options"), !names.isEmpty {
            for n in names { if let o = StatisticsOptions.named(n) { options.insert(o) } else { fail("options", "unknown option '\(n)'") } }
        } else { fail("options", "is required, such as cumulativeSum or discreteAverage") }
        var unit: HealthUnit?
        if let u = request.query("unit") {
            // Read with the type's molar mass (mmol/L for blood glucose); compatibility is the query's own check.
            do { unit = try type.map { try $0.unit(u) } ?? HealthUnit.parse(u) }
            catch { fail("unit", "unit '\(u)' is not a HealthKit unit string (\(error))") }
        }
        var excludeUserEntered = false
        if let e = request.query("excludeUserEntered") {
            switch e { case "true", "1": excludeUserEntered = true; case "false", "0": break; default: fail("excludeUserEntered", "must be true or false") }
        }
        let timeZone = request.query("timeZone") ?? "UTC"
        guard problems.isEmpty, let type, let start, let end, let interval else { throw HTTPError.validation(problems) }
        return StatisticsQuery(type: type, start: start, end: end, interval: interval, anchorDate: anchorDate, timeZone: timeZone,
                               options: options, unit: unit, excludeUserEntered: excludeUserEntered,
                               sources: list("sources").map(Set.init), priority: list("priority") ?? [])
    }
}
