import CareSyncCore
import CareSyncHTTP
import Foundation

extension FHIRController {
    /// GET /fhir/R4/Observation?patient=…: one page of a searchset Bundle, with the feed's reach, read types and audit.
    func searchObservations(_ request: Request, _ context: APIContext) async throws -> Response {
        try await answering {
            let principal = try await authenticate(request, context)
            let parsed: ObservationSearchRequest
            do {
                parsed = try ObservationSearchRequest.parse(request, defaultCount: limits.defaultCount, maxCount: limits.maxCount)
            } catch let error as FHIRError {
                let patient = PathID.auditPatient(request.head.query.first { $0.name == "patient" }?.value)
                try? await audit.commit(AuditScope(principal: principal, patient: patient, action: "fhir.observations.search")
                    .record(count: 0, status: error.status.code, time: clock.now()))
                throw error
            }
            let query = parsed.query
            let scope = AuditScope(principal: principal, patient: query.patient, action: "fhir.observations.search")
            return try await audited(scope) {
                let base = try FHIRBaseURL.of(request, configured: publicURL)
                try await requireReach(principal, patient: query.patient)
                if query.asksForDailyTotals { return try await searchDailyTotals(parsed, principal: principal, base: base) }
                let types = principal.readable(query.types)
                let (page, total, times) = try await collect(query, types: types)
                let therapists = page.samples.isEmpty ? [] : try await therapistSources()
                let observations = page.samples.map {
                    ObservationMapper.observation(of: $0, patient: query.patient, enteredByTherapist: therapists.contains($0.source),
                                                  lastUpdated: times[$0.uuid])
                }
                let next = page.hasMore ? page.samples.last.map { parsed.link(base: base, cursor: ObservationCursor($0).text) } : nil
                let bundle = FHIRWire.searchset(observations, total: total, base: base,
                                                selfLink: parsed.link(base: base, cursor: nil), nextLink: next)
                return (Response.fhir(bundle), observations.count)
            }
        }
    }

    /// Reads the patient's feed of `types` (nil: all) in the query's time window, with write times, and keeps the page's
    /// samples and their write times.
    func collect(_ query: ObservationQuery, types: Set<SampleType>?) async throws
        -> (page: (samples: [Sample], hasMore: Bool), total: Int, writeTimes: [UUID: Date]) {
        if let types, types.isEmpty { return (([], false), 0, [:]) }
        let bounds = query.storeBounds
        if let from = bounds.from, let to = bounds.to, from >= to { return (([], false), 0, [:]) }
        let store = self.store, pageSize = limits.scanPage
        return try await blocking {
            var collector = ObservationPageCollector(query: query)
            var feed = ChangeQuery(patient: query.patient, types: types, limit: pageSize,
                                   from: bounds.from.map(SyncRules.date(milliseconds:)), to: bounds.to.map(SyncRules.date(milliseconds:)),
                                   writeTimes: true)
            while true {
                let changes = try store.changes(feed)
                for sample in changes.samples { collector.offer(sample, writeTime: changes.writeTimes[sample.uuid]) }
                guard changes.hasMore else { break }
                feed.anchor = changes.anchor
            }
            let page = collector.page()
            var times: [UUID: Date] = [:]
            for sample in page.samples { times[sample.uuid] = collector.writeTime(of: sample.uuid) }
            return (page, collector.total, times)
        }
    }
}
