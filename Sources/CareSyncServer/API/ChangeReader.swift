import CareSyncCore
import CareSyncHTTP
import Foundation

/// Reads a patient's change feed for long polls, event streams and their limits: pages shared by the polls one
/// commit woke, parking on the store's `ChangeNotifier`, the parked counts and each token's places.
struct ChangeReader: Sendable {
    let store: any SyncStore
    let calls: StoreCalls
    let tokens: TokenCheck
    /// The API's clock: long-poll deadlines, event stream keep-alives and lifetimes (monotonic), audit times (wall).
    let clock: ServerClock
    let limits: APILimits
    /// Seals the anchors answers carry and opens the ones clients send (under the store's anchor key).
    let anchors: AnchorWire
    let metrics: ServerMetrics
    /// Feed reads shared by long polls woken by the same commit.
    let sharedReads: SharedCalls<SharedPageKey, SharedPage>
    /// The next pages of walks through the feed, read ahead.
    let pagesAhead: PagesAhead
    /// The open event streams.
    let streams: EventStreams
    /// Each token's long polls and event streams waiting now.
    let tokenWaits: TokenWaits

    /// Wakes long polls whenever the store commits a change of their patient.
    var notifier: ChangeNotifier { store.notifier }

    /// The feed's query parameters, checked: `types`, `limit`, `wait`, `from`, `to`, `source`, `unit`, `anchor`.
    struct FeedParameters: Sendable {
        var query: ChangeQuery
        var wait: Int
        var unit: HealthUnit?
        /// `anchor=now`: start at the head of the feed (`startAtHead` sets `query.anchor`).
        var startsAtHead = false
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
        let given = request.query("anchor")
        if let a = given, !a.isEmpty, a != Self.headAnchor { query.anchor = try anchors.decode(a) }
        return FeedParameters(query: query, wait: wait, unit: unit, startsAtHead: given == Self.headAnchor)
    }

    /// The `anchor` value that asks for the head of the feed, as CouchDB's `since=now`: no history is read.
    static let headAnchor = "now"

    /// Sets an `anchor=now` read's anchor to the store's head, read now (a later commit is after it).
    func startAtHead(_ feed: inout FeedParameters) async throws {
        guard feed.startsAtHead else { return }
        let store = self.store
        feed.query.anchor = try await calls.blocking { try store.currentAnchor() }
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
