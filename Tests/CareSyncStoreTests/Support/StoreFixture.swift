import CareSyncTestSupport
import CareSyncCore
import Foundation
@testable import CareSyncStore

/// A migrated SQLite store in a temporary directory, with input builders.
struct StoreFixture {
    let directory: TemporaryDirectory
    let store: SQLiteSyncStore

    /// Directories of stores handed out without their fixture (the contract suite keeps only the store).
    private static let kept = KeptDirectories()
    static func releaseKeptDirectories() { kept.releaseAll() }

    /// The repository's top-level `migrations/`.
    static let migrationsURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("migrations")

    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)  // 2020-06-18T10:00:00Z

    static func make(synchronous: ConnectionConfiguration.Synchronous = .normal) throws -> StoreFixture {
        let directory = try TemporaryDirectory("caresync-store")
        var configuration = Database.Configuration()
        configuration.connection.synchronous = synchronous
        let store = try SQLiteSyncStore(path: directory.path("store.sqlite"), migrationsDirectory: migrationsURL,
                                        configuration: configuration)
        kept.keep(directory)  // Removed at exit, so a store outlives its fixture.
        return StoreFixture(directory: directory, store: store)
    }

    static func input(uuid: UUID? = nil, type: SampleType = .sixMinuteWalkTestDistance, value: Double = 400,
                      start: Date = t0, minutes: Double = 6, syncIdentifier: String? = nil, syncVersion: Int64? = nil,
                      metadata: [String: MetadataValue] = [:]) -> SampleInput {
        SampleInput(uuid: uuid, type: type, value: value, start: start, end: start.addingTimeInterval(minutes * 60),
                    syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata)
    }

    /// Follows the feed from `anchor` until `hasMore` is false, with pages of `limit`.
    func readAll(patient: String, from anchor: Anchor? = nil, limit: Int = 500) throws -> (items: [FeedItem], anchor: Anchor) {
        var items: [FeedItem] = []
        var anchor = anchor
        while true {
            let page = try store.changes(ChangeQuery(patient: patient, anchor: anchor, limit: limit))
            items += page.samples.map { .sample($0) } + page.deletedObjects.map { .deleted($0) }
            anchor = page.anchor
            if !page.hasMore { return (items, page.anchor) }
        }
    }
}

/// One item of the feed.
enum FeedItem: Hashable {
    case sample(Sample)
    case deleted(DeletedObject)

    var uuid: UUID {
        switch self { case .sample(let s): s.uuid; case .deleted(let d): d.uuid }
    }
}

/// Keeps temporary directories alive until the process ends.
final class KeptDirectories: Sendable {
    private let state = Shared<(directories: [TemporaryDirectory], registered: Bool)>(([], false))
    func keep(_ directory: TemporaryDirectory) {
        let first = state.update { state -> Bool in
            state.directories.append(directory)
            defer { state.registered = true }
            return !state.registered
        }
        if first { atexit { StoreFixture.releaseKeptDirectories() } }
    }
    func releaseAll() { state.update { $0.directories.removeAll() } }
}
