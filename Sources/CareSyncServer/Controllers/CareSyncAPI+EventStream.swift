import Foundation
import CareSyncCore

extension CareSyncAPI {
    /// GET …/changes with `Accept: text/event-stream`: the feed's pages as server-sent events.
    /// Everything that can refuse (reach, parameters, 400/410 anchors, the parked limit, the audit record)
    /// happens before the stream starts, as a normal problem answer; one audit record counts the first event's items.
    func streamChanges(_ request: APIRequest) async throws -> APIReply {
        try await patientScoped(request, action: "changes.stream") { principal, patient in
            var feed = try self.feedParameters(request, patient: patient)
            // An EventSource reconnects to the same URL with the last id it saw: that wins over `anchor=`.
            if let id = request.header("Last-Event-ID")?.trimmingCharacters(in: .whitespaces), !id.isEmpty {
                feed.query.anchor = try AnchorWire.decode(id)
            }
            feed.query.types = principal.readable(feed.query.types)
            guard self.parkedCount < self.limits.maxParkedPolls else {
                throw APIError.tooManyRequests("Too many long polls and event streams are waiting; retry shortly.")
            }
            let first = try await self.readPage(feed.query, generation: self.notifier.generation(of: patient))
            self.metrics.feedPageServed()
            let stream = EventStream(api: self, query: feed.query, first: first, unit: feed.unit)
            let reply = APIReply(status: 200, headers: [("Content-Type", "text/event-stream")], stream: stream.body)
            return (reply, first.samples.count + first.deletedObjects.count)
        }
    }

    /// Whether the request's `Accept` names `text/event-stream`.
    static func wantsEventStream(_ request: APIRequest) -> Bool {
        guard let accept = request.header("Accept") else { return false }
        return accept.split(separator: ",").contains { range in
            let media = range.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? ""
            return media.caseInsensitiveCompare("text/event-stream") == .orderedSame
        }
    }
}
