import CareSyncCore
import CareSyncHTTP
import Foundation

extension StatisticsController {
    /// GET /v1/patients/{patientId}/statistics/changes: the statistics query's buckets that changes since `anchor`
    /// touched, with their figures now, and the anchor to ask from next time (the WWDC20 pattern: an anchored query
    /// says which days changed, a statistics query recomputes only those). Without `anchor`, every bucket.
    func getStatisticsChanges(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "statistics.changes") { principal, patient in
            var query = try Self.statisticsQuery(request)
            var since: Anchor?
            if let a = request.query("anchor"), !a.isEmpty { since = try self.anchors.decode(a) }
            let readable = principal.mayRead(query.type)
            // A type the caller may not read has no samples, as in statistics and the feed: nothing changes.
            if !readable { query.sources = [] }
            // A pair counts only when the token may read the whole pair, as in the feed and checksums.
            query.correlations = principal.readableCorrelations(of: query.type)
            let q = query, from = since, store = self.store, limit = self.pageLimit
            let (collection, touched, anchor) = try await self.calls.blocking { () throws -> (StatisticsCollection, Set<Int>?, Anchor) in
                let plan = try StatisticsPlan(q)
                let (touched, anchor) = try Self.touchedBuckets(plan, patient: patient, since: from, readable: readable,
                                                                store: store, pageLimit: limit)
                return (try store.statistics(patient: patient, query: q), touched, anchor)
            }
            var changed = collection
            if let touched { changed.buckets = collection.buckets.enumerated().filter { touched.contains($0.offset) }.map(\.element) }
            guard case .object(var body) = StatisticsWire.encode(changed) else { throw HTTPError.internal }
            body["anchor"] = .string(self.anchors.encode(anchor))
            return (Response.json(.object(body)), changed.buckets.count)
        }
    }

    /// The most changes read to find the touched buckets; past it, every bucket is answered.
    static let statisticsChangesBudget = 100_000

    /// The indexes of the buckets of `plan` that a change after `since` overlaps (nil: every bucket), and the anchor
    /// after the last change read. A change overlaps a bucket when its sample's span `[start, end]` meets the
    /// bucket's `[start, end)` (a sample with no duration: the bucket holding its start).
    static func touchedBuckets(_ plan: StatisticsPlan, patient: String, since: Anchor?, readable: Bool,
                               store: any SyncStore, pageLimit: Int) throws -> (Set<Int>?, Anchor) {
        guard let since else { return (nil, try store.currentAnchor()) }
        var query = ChangeQuery(patient: patient, anchor: since, types: readable ? plan.query.statisticsSources : [],
                                limit: pageLimit)
        if !readable {
            // Nothing visible changes; still the anchor is checked (400, 410) and moves to the head.
            _ = try store.changes(ChangeQuery(patient: patient, anchor: since, limit: 1))
            return ([], try store.currentAnchor())
        }
        var touched = Set<Int>(), read = 0
        while true {
            let page = try store.changes(query)
            for sample in page.samples { mark(plan, SyncRules.milliseconds(sample.start), SyncRules.milliseconds(sample.end), into: &touched) }
            for gone in page.deletedObjects { mark(plan, SyncRules.milliseconds(gone.start), SyncRules.milliseconds(gone.end), into: &touched) }
            read += page.samples.count + page.deletedObjects.count
            query.anchor = page.anchor
            if !page.hasMore { return (touched, page.anchor) }
            if read >= statisticsChangesBudget {
                // Too many to be worth sorting out: every bucket, from the head (a newer anchor than the last page's).
                return (nil, try store.currentAnchor())
            }
        }
    }

    /// Adds the buckets `[start, end]` overlaps.
    static func mark(_ plan: StatisticsPlan, _ start: Int64, _ end: Int64, into touched: inout Set<Int>) {
        let bounds = plan.bounds
        guard end >= bounds[0], start < bounds[bounds.count - 1] else { return }
        // The last boundary at or before `start`: the bucket holding the start (or the first bucket).
        var low = 0, high = bounds.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if bounds[mid] <= start { low = mid } else { high = mid }
        }
        var index = low
        while index < plan.bucketCount {
            touched.insert(index)
            if bounds[index + 1] >= end { break }
            index += 1
        }
    }
}

extension StatisticsQuery {
    /// The stored types this query reads: its type, and the correlations holding it that count
    /// (blood pressure pairs for `bloodPressureSystolic`, unless the caller may not read the pair).
    var statisticsSources: Set<SampleType> { Set([type] + countedCorrelations.map(\.correlation)) }
}
