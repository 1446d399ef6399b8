import HTTPTypes
import CareSyncHTTP
import Foundation
import CareSyncCore

extension FeedController {
    /// GET …/changes with `Accept: text/event-stream`: the feed's pages as server-sent events.
    /// Everything that can refuse (reach, parameters, 400/410 anchors, the parked limit, the audit record)
    /// happens before the stream starts, as a normal problem answer; one audit record counts the first event's items,
    /// and each later `changes` event leaves its own (`EventStream`).
    /// Out of line: inlined into `getChanges`, its frame would be every long poll's.
    @inline(never)
    func streamChanges(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "changes.stream") { principal, patient in
            var feed = try self.reader.feedParameters(request, patient: patient)
            try await self.reader.startAtHead(&feed)
            // An EventSource reconnects to the same URL with the last id it saw: that wins over `anchor=`.
            if let id = request.header("Last-Event-ID").map({ String($0.trimmingSpaces()) }), !id.isEmpty {
                feed.query.anchor = try self.reader.anchors.decode(id)
            }
            feed.query.types = principal.readable(feed.query.types)
            guard self.reader.parkedCount < self.reader.limits.maxParkedPolls else {
                throw HTTPError.tooManyRequests("Too many long polls and event streams are waiting; retry shortly.")
            }
            try self.reader.enterTokenWait(principal)
            let first: ChangeSet
            do {
                first = try await self.reader.readPage(feed.query, generation: self.reader.notifier.generation(of: patient))
            } catch {
                self.reader.tokenWaits.leave(principal.tokenID)
                throw error
            }
            self.reader.metrics.feedPageServed()
            let stream = EventStream(reader: self.reader, audit: self.audit, principal: principal, query: feed.query, first: first, unit: feed.unit)
            let reply = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .stream(stream.body))
            return (reply, first.samples.count + first.deletedObjects.count)
        }
    }

    /// Whether the request's `Accept` prefers `text/event-stream` to JSON (EventSource sends only the former).
    static func wantsEventStream(_ request: Request) -> Bool {
        guard let accept = request.header("Accept") else { return false }
        var stream = 0.0, json = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let media = parts.first else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            switch media {
            case "text/event-stream": stream = max(stream, q)
            case "application/json", "application/*", "*/*": json = max(json, q)
            default: break
            }
        }
        // A client that takes both equally (a generated client lists every content type) gets JSON.
        return stream > 0 && stream > json
    }
}
