import CareSyncCore
import CareSyncLocking

/// One `text/event-stream` answer of the change feed (WHATWG server-sent events).
///
/// The connection pulls it one event at a time (`AsyncThrowingStream(unfolding:)`), so a slow reader
/// holds back the reads instead of filling a buffer, and a client that goes away cancels the pull.
/// Between pages it parks on the `ChangeNotifier` like a long poll: a continuation, no thread.
///
/// Events: `changes` carries a feed page with items; `anchor` carries an empty page, sent every keep-alive
/// interval with nothing visible, whether or not hidden changes moved the anchor (never early on a commit the
/// caller may not see, and always, so it tells nothing about hidden changes). Each event's `id` is its page's
/// anchor, sealed (`AnchorWire`). The stream ends after its lifetime, at shutdown, or when the client goes away.
///
/// Before every step after the opening event the caller's token is read again: revoked (here, on another
/// instance or from the command line) or expired, the stream ends with nothing more, and an audit record
/// `changes.stream.end` with status 401 notes the cut. A revocation on this instance and the token's expiry
/// wake a parked stream at once. Every `changes` event leaves an audit record `changes.stream.event` with
/// its item count, stored before the event is sent.
final class EventStream: Sendable {
    private struct State: Sendable {
        /// Where the next read starts.
        var query: ChangeQuery
        /// The opening event, not yet pulled.
        var opening: [UInt8]?
        /// When the next keep-alive (an anchor event) is due.
        var tick: ContinuousClock.Instant
    }
    private let state: Locked<State>
    private let reader: ChangeReader
    private let audit: AuditLog
    private let principal: Principal
    private let patient: String
    private let unit: HealthUnit?
    private let keepAlive: Duration
    private let end: ContinuousClock.Instant

    /// A stream of `principal` that opens with `first` (read from `query.anchor`) and goes on after its anchor;
    /// it holds one of the principal's `tokenWaits` places (taken by the caller) and gives it back when it ends.
    init(reader: ChangeReader, audit: AuditLog, principal: Principal, query: ChangeQuery, first: ChangeSet, unit: HealthUnit?) {
        let now = reader.clock.instant()
        let keepAlive = reader.limits.streamKeepAlive
        var next = query
        next.anchor = first.anchor
        self.reader = reader
        self.audit = audit
        self.principal = principal
        patient = query.patient
        self.unit = unit
        self.keepAlive = keepAlive
        end = now + reader.limits.streamLifetime
        state = Locked(State(query: next, opening: Self.event(for: first, anchor: reader.anchors.encode(first.anchor), unit: unit), tick: now + keepAlive))
        reader.streams.opened()
        reader.metrics.eventStreamOpened()
    }

    deinit {
        reader.tokenWaits.leave(principal.tokenID)
        reader.streams.closed()
        reader.metrics.eventStreamClosed()
    }

    /// The body: events pulled one by one until the stream ends.
    var body: AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream(unfolding: { try await self.next() })
    }

    /// The event of a page: `changes` with items, else `anchor`. A JSON text never holds a raw line
    /// break (the writer escapes control characters), so the page is one `data:` line.
    static func event(for page: ChangeSet, anchor: String, unit: HealthUnit?) -> [UInt8] {
        let name = page.samples.isEmpty && page.deletedObjects.isEmpty ? "anchor" : "changes"
        var out = Array("id: \(anchor)\nevent: \(name)\ndata: ".utf8)
        out += FeedWriter.page(page, anchor: anchor, unit: unit)
        out += "\n\n".utf8
        return out
    }

    /// The next event, or nil when the stream ends. Called by one consumer at a time.
    private func next() async throws -> [UInt8]? {
        var s = state.withLock { $0 }
        if let opening = s.opening {
            state.withLock { $0.opening = nil }
            return opening
        }
        defer { state.withLock { $0 = s } }
        while true {
            let now = reader.clock.instant()
            guard !Task.isCancelled, !reader.streams.isStopping, now < end else { return nil }
            // Made before the token is read, so a revocation after the read still wakes the wait below.
            let tag = reader.notifier.tag(principal.tokenID)
            guard try await reader.tokens.stillValid(principal) else {
                try await record(action: "changes.stream.end", count: 0, status: 401)
                return nil
            }
            guard try await reader.tokens.stillInReach(principal, patient: patient) else {
                try await record(action: "changes.stream.end", count: 0, status: 404)
                return nil
            }
            let generation = reader.notifier.generation(of: patient)
            let page = try await reader.readPage(s.query, generation: generation)
            s.query.anchor = page.anchor
            if !page.samples.isEmpty || !page.deletedObjects.isEmpty {
                s.tick = now + keepAlive
                reader.metrics.feedPageServed()
                try await record(action: "changes.stream.event", count: page.samples.count + page.deletedObjects.count, status: 200)
                return Self.event(for: page, anchor: reader.anchors.encode(page.anchor), unit: unit)
            }
            if now >= s.tick {
                // Every keep-alive is an `anchor` event, whether or not changes the caller cannot see moved the
                // anchor: choosing between an event and a comment would tell that they did. Sealed, it says nothing.
                s.tick = now + keepAlive
                return Self.event(for: page, anchor: reader.anchors.encode(page.anchor), unit: unit)
            }
            // Nothing visible: park until a commit for the patient, the next keep-alive, the end of life, the
            // token's expiry or its revocation here.
            let left = reader.tokens.parkingTime(principal, limit: now.duration(to: min(s.tick, end)))
            reader.streams.parking(true)
            _ = await reader.notifier.wait(for: patient, after: generation, timeout: left, tag: tag)
            reader.streams.parking(false)
        }
    }

    /// Stores the audit record of one step of this stream before it is sent.
    private func record(action: String, count: Int, status: Int) async throws {
        let scope = AuditScope(principal: principal, patient: patient, action: action)
        try await audit.commit(scope.record(count: count, status: status, time: reader.clock.now()))
    }
}
