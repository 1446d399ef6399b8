import Foundation
@testable import CareSyncClient

/// A client-side replica of a feed: samples by uuid, applied as the sync rules say, with its checksum
/// figures kept incrementally (a held sample's digest taken away before it is replaced or deleted).
struct Replica {
    var samples: [UUID: Sample] = [:]
    /// Every sample uuid delivered, counting repeats.
    var deliveries: [UUID: Int] = [:]
    /// The running figures of `samples`.
    var figures = ReplicaChecksums()

    /// Applies one page: upsert samples by uuid, remove deleted objects (unknown uuids are ignored).
    mutating func apply(_ page: [Sample], _ deleted: [DeletedObject]) {
        for sample in page {
            if let held = samples[sample.uuid] { figures.remove(type: held.type, uuid: held.uuid, syncVersion: held.syncVersion) }
            samples[sample.uuid] = sample
            figures.add(sample)
            deliveries[sample.uuid, default: 0] += 1
        }
        for object in deleted {
            guard let held = samples.removeValue(forKey: object.uuid) else { continue }
            figures.remove(type: held.type, uuid: held.uuid, syncVersion: held.syncVersion)
        }
    }

    /// Applies an event of an `AnchoredChanges` sequence.
    mutating func apply(_ event: AnchoredChanges.Event) {
        switch event {
        case .page(let page, let deleted, _): apply(page, deleted)
        case .reset:
            samples.removeAll()
            figures = ReplicaChecksums()
        }
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// Instants and drafts of the WWDC20 story.
enum Story {
    /// `2020-06-18T17:00:00.000Z`-style instants.
    static func date(_ text: String) -> Date { Instant.parse(text)! }

    /// `count` step samples an hour apart from 2020-06-01, each with a sync identifier.
    static func steps(_ count: Int, prefix: String = "steps", version: Int = 1) -> [SampleDraft] {
        let base = date("2020-06-01T00:00:00Z")
        return (0..<count).map { i in
            let start = base.addingTimeInterval(TimeInterval(i) * 3600)
            return SampleDraft(type: "stepCount", value: Double(100 + i % 50), unit: "count",
                               start: start, end: start.addingTimeInterval(3600),
                               syncIdentifier: "\(prefix)-\(i)", syncVersion: version)
        }
    }

    /// Every live sample the server holds for `alice`, read from no anchor.
    static func serverSamples(_ client: CareSyncClient) async throws -> [UUID: Sample] {
        var replica = Replica()
        for try await event in client.anchoredChanges(patient: "alice", store: MemoryAnchorStore(), limit: 5000) {
            replica.apply(event)
        }
        return replica.samples
    }
}
