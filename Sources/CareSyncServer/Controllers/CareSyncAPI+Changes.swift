import Foundation
import CareSyncCore

extension CareSyncAPI {
    /// GET /v1/patients/{patientId}/changes: one page of the anchored feed, optionally long-polled.
    func getChanges(_ request: APIRequest) async throws -> APIReply {
        let received = ContinuousClock.now
        return try await patientScoped(request, action: "changes.read") { principal, patient in
            var query = ChangeQuery(patient: patient, limit: self.limits.defaultPageLimit)
            var problems: [ValidationProblem] = []
            func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
            if let t = request.queryList("types"), !t.isEmpty { query.types = Self.parseTypes(t, field: "types", fail: fail) }
            if let l = request.query("limit") {
                if let n = Int(l), (1...self.limits.maxPageLimit).contains(n) { query.limit = n }
                else { fail("limit", "must be an integer from 1 to \(self.limits.maxPageLimit)") }
            }
            var wait = 0
            if let w = request.query("wait") {
                if let n = Int(w), (0...self.limits.maxWaitSeconds).contains(n) { wait = n }
                else { fail("wait", "must be an integer from 0 to \(self.limits.maxWaitSeconds) (seconds)") }
            }
            for (field, text) in [("from", request.query("from")), ("to", request.query("to"))] {
                guard let text else { continue }
                if let d = RFC3339.parse(text) { if field == "from" { query.from = d } else { query.to = d } }
                else { fail(field, "must be an RFC 3339 date-time with an offset or Z") }
            }
            if let s = request.query("source") { if s.isEmpty { fail("source", "must not be empty") } else { query.source = s } }
            var unit: HealthUnit?
            if let u = request.query("unit") { do { unit = try HealthUnit.parse(u) } catch { fail("unit", "unit '\(u)' is not a HealthKit unit string (\(error))") } }
            guard problems.isEmpty else { throw APIError.validation(problems) }
            if let a = request.query("anchor"), !a.isEmpty { query.anchor = try AnchorWire.decode(a) }

            query.types = principal.readable(query.types)
            let page = try await self.readChanges(query, until: Self.longPollDeadline(received: received, wait: wait))
            self.metrics.feedPageServed()
            let reply = APIReply(status: 200, headers: [("Content-Type", "application/json")], body: FeedWriter.page(page, unit: unit))
            return (reply, page.samples.count + page.deletedObjects.count)
        }
    }

    /// When a `wait=N` poll answers at the latest: early enough before N seconds after the request arrived
    /// that the answer leaves before a client's N-second timer fires, even on a busy machine
    /// (0.5 s + 5 % of N early, at most 2 s); nil for no wait.
    static func longPollDeadline(received: ContinuousClock.Instant, wait: Int) -> ContinuousClock.Instant? {
        guard wait > 0 else { return nil }
        return received + .seconds(wait) - .milliseconds(min(2_000, 500 + 50 * wait))
    }

    /// Reads a page; when it is empty and a deadline is given, parks until a commit for the patient or the deadline.
    func readChanges(_ query: ChangeQuery, until deadline: ContinuousClock.Instant?) async throws -> ChangeSet {
        let store = self.store
        if let types = query.types, types.isEmpty {
            // Nothing is readable: an empty page at the head, so the reader skips nothing it could see.
            if let anchor = query.anchor { _ = try await blocking { try store.changes(ChangeQuery(patient: query.patient, anchor: anchor, limit: 1)) } }
            let head = try await blocking { try store.currentAnchor() }
            return ChangeSet(samples: [], deletedObjects: [], anchor: head, hasMore: false)
        }
        var generation = notifier.generation(of: query.patient)
        var page = try await sharedReads.read(query, generation: generation) { try await self.blocking { try store.changes(query) } }
        guard let deadline, page.samples.isEmpty, page.deletedObjects.isEmpty else { return page }
        guard notifier.waiterCount < limits.maxParkedPolls else {
            throw APIError.tooManyRequests("Too many long polls are waiting; retry shortly.")
        }
        var next = query
        next.anchor = page.anchor
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return page }
            let remaining = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            metrics.longPollParked()
            let woke = await notifier.wait(for: query.patient, after: generation, timeout: remaining)
            metrics.longPollUnparked()
            generation = notifier.generation(of: query.patient)
            let q = next
            page = try await sharedReads.read(q, generation: generation) { try await self.blocking { try store.changes(q) } }
            if !woke || !page.samples.isEmpty || !page.deletedObjects.isEmpty { return page }
            next.anchor = page.anchor
        }
    }

    /// Parses a comma list of sample types; unknown names are problems.
    static func parseTypes(_ text: String, field: String, fail: (String, String) -> Void) -> Set<SampleType>? {
        var set = Set<SampleType>()
        for name in text.split(separator: ",", omittingEmptySubsequences: true) {
            let n = name.trimmingCharacters(in: .whitespaces)
            if let t = SampleType(rawValue: n) { set.insert(t) } else { fail(field, "unknown sample type '\(n)'") }
        }
        return set
    }
}
