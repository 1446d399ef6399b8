import CareSyncHTTP
import Foundation
import CareSyncCore

/// The change feed: pages, long polls and event streams of one patient's changes.
struct FeedController: Sendable {
    let gate: AccessGate
    let reader: ChangeReader
    let audit: AuditLog
    let clock: ServerClock

    /// Its endpoints.
    var routes: [APIRoute] {
        [APIRoute(.get, "/v1/patients/{patientId}/changes", getChanges)]
    }

    /// GET /v1/patients/{patientId}/changes: one page of the anchored feed, optionally long-polled; with
    /// `Accept: text/event-stream`, the same pages as server-sent events (`streamChanges`).
    func getChanges(_ request: Request, _ context: APIContext) async throws -> Response {
        if Self.wantsEventStream(request) { return try await streamChanges(request, context) }
        let received = clock.instant()
        // Read before authentication, so a revocation after the token was checked still ends the wait.
        let epoch = reader.notifier.interruptEpoch
        return try await gate.patientScopedWrite(request, context, action: "changes.read") { principal, patient, scope in
            var feed = try self.reader.feedParameters(request, patient: patient)
            try await self.reader.startAtHead(&feed)
            feed.query.types = principal.readable(feed.query.types)
            let shared = try await self.reader.readChanges(feed.query, until: Self.longPollDeadline(received: received, wait: feed.wait),
                                                    principal: principal, tag: self.reader.notifier.tag(principal.tokenID, since: epoch))
            let page = shared.page
            self.reader.metrics.feedPageServed()
            let count = page.samples.count + page.deletedObjects.count
            // An empty page hands back the caller's own anchor string: "the same anchor" (api.md), whether or not
            // changes the caller cannot see moved the store's position. Otherwise the page's anchor, sealed.
            let given = request.query("anchor").flatMap { $0.isEmpty || feed.startsAtHead ? nil : $0 }
            let record = scope.record(count: count, status: 200, time: self.clock.now())
            let body: [UInt8]
            if count > Self.inlineEncodingLimit {
                body = try await self.encodeWhileCommitting(record, page: page, unit: feed.unit)
            } else {
                if count == 0, let given {
                    body = FeedWriter.page(page, anchor: given, unit: feed.unit)
                } else {
                    // A page this small is written in less time than a task takes to start: before the commit,
                    // here, once for every caller of its read (the polls one commit woke share its JSON and anchor).
                    body = shared.body(unit: feed.unit) { page, unit in
                        FeedWriter.page(page, anchor: self.reader.anchors.encode(page.anchor), unit: unit)
                    }
                }
                try await self.audit.commit(record)
            }
            scope.markStored()
            return (Response.json(body), count)
        }
    }

    /// `page` written while `record` commits; the answer leaves after both. Out of line, so the child task's room is
    /// in the frames of the large pages that use it, not of every poll.
    @inline(never)
    private func encodeWhileCommitting(_ record: AuditRecord, page: ChangeSet, unit: HealthUnit?) async throws -> [UInt8] {
        let anchor = reader.anchors.encode(page.anchor)
        async let encoded = FeedWriter.page(page, anchor: anchor, unit: unit)
        try await audit.commit(record)
        return await encoded
    }

    /// The most items a page may hold to be written on the request's own task rather than beside its audit commit.
    static let inlineEncodingLimit = 64

    /// When a `wait=N` poll answers at the latest: early enough before N seconds after the request arrived
    /// that the answer leaves before a client's N-second timer fires, even on a busy machine
    /// (0.5 s + 5 % of N early, at most 2 s); nil for no wait.
    static func longPollDeadline(received: ContinuousClock.Instant, wait: Int) -> ContinuousClock.Instant? {
        guard wait > 0 else { return nil }
        return received + .seconds(wait) - .milliseconds(min(2_000, 500 + 50 * wait))
    }
}
