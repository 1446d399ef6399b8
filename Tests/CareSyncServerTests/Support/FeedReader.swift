import CareSyncTestSupport
@testable import CareSyncServer

/// A client following alice's feed by anchor, two items a page, sending each page to the other instance than the
/// last (so every anchor it uses came from the other instance).
struct FeedReader {
    /// The anchor to read on from (nil: from the start).
    var anchor: String?
    /// Uuids of the samples read, in order, repeats kept.
    var samples: [String] = []
    /// Uuids of the deleted objects read, in order, repeats kept.
    var deleted: [String] = []
    /// Pages read so far.
    var pages = 0

    /// Reads pages until the feed says nothing more follows now.
    mutating func readToHead(_ servers: TwoInstances, token: String) async throws {
        var more = true
        while more {
            pages += 1
            let query = "?limit=2" + (anchor.map { "&anchor=\($0)" } ?? "")
            let page = try await servers.send(1 + pages % 2, "GET", "/v1/patients/alice/changes" + query, token: token)
            guard page.status == 200, let next = page.json["anchor"]?.stringValue else {
                throw TestHTTPClient.Failure.malformed("page \(pages): \(page.status) \(page.text)")
            }
            samples += page.json["samples"]?.arrayValue?.compactMap { $0["uuid"]?.stringValue } ?? []
            deleted += page.json["deletedObjects"]?.arrayValue?.compactMap { $0["uuid"]?.stringValue } ?? []
            anchor = next
            more = page.json["hasMore"] == true
        }
    }
}
