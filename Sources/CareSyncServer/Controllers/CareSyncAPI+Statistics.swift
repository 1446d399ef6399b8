import CareSyncHTTP
import CareSyncCore
import Foundation

extension CareSyncAPI {
    /// GET /v1/patients/{patientId}/statistics: `HKStatisticsCollectionQuery` on the server.
    func getStatistics(_ request: Request, _ context: APIContext) async throws -> Response {
        try await patientScoped(request, context, action: "statistics.read") { principal, patient in
            var query = try Self.statisticsQuery(request)
            // A type the caller may not read answers as if it had no samples, as HealthKit hides read denial.
            if !principal.mayRead(query.type) { query.sources = [] }
            // A pair counts only when the token may read the whole pair, as in the feed and checksums.
            query.correlations = principal.readableCorrelations(of: query.type)
            let q = query
            let store = self.store
            let collection = try await self.blocking { try store.statistics(patient: patient, query: q) }
            return (Response.json(Self.encode(collection)), collection.buckets.count)
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

    static func encode(_ c: StatisticsCollection) -> JSONValue {
        func figures(_ v: StatisticsValues, into o: inout [String: JSONValue]) {
            if c.options.contains(.cumulativeSum) { o["sum"] = .optional(v.sum) }
            if c.options.contains(.discreteAverage) { o["average"] = .optional(v.average) }
            if c.options.contains(.discreteMin) { o["min"] = .optional(v.minimum) }
            if c.options.contains(.discreteMax) { o["max"] = .optional(v.maximum) }
            if c.options.contains(.mostRecent) { o["mostRecent"] = .optional(v.mostRecent) }
            if c.options.contains(.durationByValue) {
                // One entry per value that occurs, by value, with HealthKit's name for it.
                let names = Dictionary(uniqueKeysWithValues: c.type.definition.values.map { ($0.value, $0.name) })
                o["durations"] = .array((v.durations ?? [:]).sorted { $0.key < $1.key }.map { value, duration in
                    ["value": .number(Double(value)), "name": .optional(names[value]), "duration": .number(duration)]
                })
            }
        }
        return [
            "type": .string(c.type.rawValue), "unit": .string(c.unit.symbol),
            "buckets": .array(c.buckets.map { b in
                var o: [String: JSONValue] = ["start": .string(RFC3339.format(b.start)), "end": .string(RFC3339.format(b.end))]
                figures(b.values, into: &o)
                if let sources = b.sources {
                    o["sources"] = .array(sources.map { s in
                        var so: [String: JSONValue] = ["source": .string(s.source)]
                        figures(s.values, into: &so)
                        return .object(so)
                    })
                }
                return .object(o)
            }),
        ]
    }
}
