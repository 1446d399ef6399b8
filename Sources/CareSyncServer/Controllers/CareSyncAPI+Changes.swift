import CareSyncHTTP
import Foundation
import CareSyncCore

extension CareSyncAPI {
    /// GET /v1/patients/{patientId}/changes: one page of the anchored feed, optionally long-polled; with
    /// `Accept: text/event-stream`, the same pages as server-sent events (`streamChanges`).
    func getChanges(_ request: Request, _ context: APIContext) async throws -> Response {
        if Self.wantsEventStream(request) { return try await streamChanges(request, context) }
        let received = ContinuousClock.now
        // Read before authentication, so a revocation after the token was checked still ends the wait.
        let epoch = notifier.interruptEpoch
        return try await patientScopedWrite(request, context, action: "changes.read") { principal, patient, scope in
            var feed = try self.feedParameters(request, patient: patient)
            feed.query.types = principal.readable(feed.query.types)
            let page = try await self.readChanges(feed.query, until: Self.longPollDeadline(received: received, wait: feed.wait),
                                                  principal: principal, tag: self.notifier.tag(principal.tokenID, since: epoch))
            self.metrics.feedPageServed()
            let count = page.samples.count + page.deletedObjects.count
            // An empty page hands back the caller's own anchor string: "the same anchor" (api.md), whether or not
            // changes the caller cannot see moved the store's position. Otherwise the page's anchor, sealed.
            let given = request.query("anchor").flatMap { $0.isEmpty ? nil : $0 }
            let anchor = (count == 0 ? given : nil) ?? self.anchors.encode(page.anchor)
            // The audit record commits while the page is written; the answer leaves after both.
            async let body = FeedWriter.page(page, anchor: anchor, unit: feed.unit)
            try await self.audit.commit(scope.record(count: count, status: 200, time: self.clock()))
            scope.markStored()
            return (Response.json(await body), count)
        }
    }

    /// The feed's query parameters, checked: `types`, `limit`, `wait`, `from`, `to`, `source`, `unit`, `anchor`.
    struct FeedParameters: Sendable {
        var query: ChangeQuery
        var wait: Int
        var unit: HealthUnit?
    }

    /// Reads and checks the feed's parameters (every problem at once, 422), then the anchor (400 when malformed).
    func feedParameters(_ request: Request, patient: String) throws -> FeedParameters {
        var query = ChangeQuery(patient: patient, limit: limits.defaultPageLimit)
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        if let t = request.queryList("types"), !t.isEmpty { query.types = Self.parseTypes(t, field: "types", fail: fail) }
        if let l = request.query("limit") {
            if let n = Int(l), (1...limits.maxPageLimit).contains(n) { query.limit = n }
            else { fail("limit", "must be an integer from 1 to \(limits.maxPageLimit)") }
        }
        var wait = 0
        if let w = request.query("wait") {
            if let n = Int(w), (0...limits.maxWaitSeconds).contains(n) { wait = n }
            else { fail("wait", "must be an integer from 0 to \(limits.maxWaitSeconds) (seconds)") }
        }
        for (field, text) in [("from", request.query("from")), ("to", request.query("to"))] {
            guard let text else { continue }
            if let d = RFC3339.parse(text) { if field == "from" { query.from = d } else { query.to = d } }
            else { fail(field, "must be an RFC 3339 date-time with an offset or Z") }
        }
        if let s = request.query("source") { if s.isEmpty { fail("source", "must not be empty") } else { query.source = s } }
        var unit: HealthUnit?
        if let u = request.query("unit") { do { unit = try HealthUnit.parse(u) } catch { fail("unit", "unit '\(u)' is not a HealthKit unit string (\(error))") } }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
        if let a = request.query("anchor"), !a.isEmpty { query.anchor = try anchors.decode(a) }
        return FeedParameters(query: query, wait: wait, unit: unit)
    }

    /// When a `wait=N` poll answers at the latest: early enough before N seconds after the request arrived
    /// that the answer leaves before a client's N-second timer fires, even on a busy machine
    /// (0.5 s + 5 % of N early, at most 2 s); nil for no wait.
    static func longPollDeadline(received: ContinuousClock.Instant, wait: Int) -> ContinuousClock.Instant? {
        guard wait > 0 else { return nil }
        return received + .seconds(wait) - .milliseconds(min(2_000, 500 + 50 * wait))
    }

    /// Reads a page; when it is empty and a deadline is given, parks until a commit for the patient or the deadline.
    /// After a wait, the caller's token is read again: revoked or expired meanwhile, the answer is 401, never data.
    /// A revocation on this instance (`tag`) or the token's expiry wakes the wait at once.
    func readChanges(_ query: ChangeQuery, until deadline: ContinuousClock.Instant?, principal: Principal,
                     tag: ChangeNotifier.WaitTag) async throws -> ChangeSet {
        // Nothing readable: an empty page at the head at once, never a wait.
        if let types = query.types, types.isEmpty { return try await readPage(query, generation: 0) }
        var generation = notifier.generation(of: query.patient)
        var page = try await readPage(query, generation: generation)
        guard let deadline, page.samples.isEmpty, page.deletedObjects.isEmpty else { return page }
        guard parkedCount < limits.maxParkedPolls else {
            throw HTTPError.tooManyRequests("Too many long polls are waiting; retry shortly.")
        }
        try enterTokenWait(principal)
        defer { tokenWaits.leave(principal.tokenID) }
        var next = query
        next.anchor = page.anchor
        var tag = tag
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            var woke = false
            if left > .zero {
                metrics.longPollParked()
                woke = await notifier.wait(for: query.patient, after: generation, timeout: parkingTime(principal, limit: left), tag: tag)
                metrics.longPollUnparked()
            }
            tag = notifier.tag(principal.tokenID)
            try await requireTokenStillValid(principal)
            // Out of time, the client gone, or the server stopping: answer what there is.
            if !woke, ContinuousClock.now >= deadline || Task.isCancelled || streams.isStopping { return page }
            generation = notifier.generation(of: query.patient)
            page = try await readPage(next, generation: generation)
            if !page.samples.isEmpty || !page.deletedObjects.isEmpty { return page }
            next.anchor = page.anchor
        }
    }

    /// Takes one of the token's places for a long poll or event stream (give it back with `tokenWaits.leave`);
    /// 429 when it already holds `maxWaitsPerToken`.
    func enterTokenWait(_ principal: Principal) throws {
        guard tokenWaits.enter(principal.tokenID) else {
            metrics.rateLimited(reason: "tokenWaits")
            throw HTTPError.tooManyRequests("This token already holds its most long polls and event streams at once; close one or retry shortly.")
        }
    }

    /// One page after `query.anchor`, read once for every request that observed the same `generation`.
    /// With nothing readable (an empty `types`), an empty page at the head, so the reader skips nothing it
    /// could see; its anchor is still checked (400, 410).
    func readPage(_ query: ChangeQuery, generation: UInt64) async throws -> ChangeSet {
        let store = self.store
        if let types = query.types, types.isEmpty {
            if let anchor = query.anchor { _ = try await blocking { try store.changes(ChangeQuery(patient: query.patient, anchor: anchor, limit: 1)) } }
            let head = try await blocking { try store.currentAnchor() }
            return ChangeSet(samples: [], deletedObjects: [], anchor: head, hasMore: false)
        }
        return try await sharedReads.read(query, generation: generation) { try await self.blocking { try store.changes(query) } }
    }

    /// Requests waiting for a change now: parked long polls and open event streams (each counts, parked or not).
    var parkedCount: Int { max(0, notifier.waiterCount - streams.parked + streams.open) }

    /// A duration as seconds.
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Parses a comma list of sample types; unknown names are problems.
    static func parseTypes(_ text: String, field: String, fail: (String, String) -> Void) -> Set<SampleType>? {
        var set = Set<SampleType>()
        for name in text.split(separator: ",", omittingEmptySubsequences: true) {
            let n = String(name.trimmingSpaces())
            if let t = SampleType(rawValue: n) { set.insert(t) } else { fail(field, "unknown sample type '\(n)'") }
        }
        return set
    }
}
