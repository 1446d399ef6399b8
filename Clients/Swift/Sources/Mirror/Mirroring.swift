import Foundation
import CareSyncClient

/// What the mirror reports as it goes.
public enum MirrorEvent: Sendable {
    /// A feed event applied with its anchor.
    case applied(AnchoredChanges.Event)
    /// The replica was compared with the server at its anchor; `differing` is empty when they agree.
    case verified(anchor: String?, differing: [String])
    /// `types` were downloaded again; they hold `samples` samples now.
    case repaired(types: [String], samples: Int)
}

/// The replica still differs from the server after repairs.
public struct ReplicaMismatch: Error, CustomStringConvertible {
    /// The types that still differ.
    public var types: [String]
    public var description: String { "the replica still differs from the server after \(SQLiteReplica.repairRounds) repairs: \(types.joined(separator: ", "))" }
}

/// How `mirror` keeps going after the head.
public struct MirrorWatch: Sendable {
    /// Seconds each long poll waits at the head (1–60).
    public var wait: Int
    /// How often the replica is verified while watching (it is also verified after the first catch-up).
    public var verifyEvery: Duration

    /// A watch from its fields.
    public init(wait: Int = 50, verifyEvery: Duration = .seconds(600)) {
        self.wait = wait
        self.verifyEvery = verifyEvery
    }
}

extension SQLiteReplica {
    /// Verifications (each followed by a repair and a catch-up when types differ) before giving up.
    public static let repairRounds = 3

    /// Applies the feed from the replica's anchor up to the head, page by page.
    public func catchUp(from client: CareSyncClient, limit: Int? = nil, onEvent: (MirrorEvent) -> Void = { _ in }) async throws {
        for try await event in client.anchoredChanges(patient: patient, store: self, limit: limit) {
            try apply(event)
            onEvent(.applied(event))
        }
    }

    /// Mirrors the feed: catches up, verifies against the server (when `verify`), repairs the types that
    /// differ; with `watch`, then long-polls for changes forever, verifying again every `watch.verifyEvery`.
    public func mirror(from client: CareSyncClient, limit: Int? = nil, verify: Bool = true, watch: MirrorWatch? = nil,
                       onEvent: (MirrorEvent) -> Void = { _ in }) async throws {
        let clock = ContinuousClock()
        var verifyAt = clock.now
        while true {
            try await catchUp(from: client, limit: limit, onEvent: onEvent)
            if verify && clock.now >= verifyAt {
                try await verifyAndRepair(from: client, limit: limit, onEvent: onEvent)
                verifyAt = clock.now + (watch?.verifyEvery ?? .zero)
            }
            guard let watch else { return }
            let wait = verify ? min(watch.wait, Self.seconds(until: verifyAt, clock)) : watch.wait
            try await awaitChanges(from: client, limit: limit, wait: wait, onEvent: onEvent)
        }
    }

    /// Verifies at the head; repairs what differs, catches up and verifies again, up to ``repairRounds`` times.
    func verifyAndRepair(from client: CareSyncClient, limit: Int?, onEvent: (MirrorEvent) -> Void) async throws {
        var differing: [String] = []
        for round in 0...Self.repairRounds {
            if round > 0 {
                let count = try await repair(types: differing, from: client, limit: limit)
                onEvent(.repaired(types: differing, samples: count))
                try await catchUp(from: client, limit: limit, onEvent: onEvent)
            }
            do {
                differing = try await verify(with: client)
            } catch let problem as Problem where problem.code == "anchorExpired" {
                // A purge after the catch-up: read on to the head and ask again (not a repair round).
                try await catchUp(from: client, limit: limit, onEvent: onEvent)
                differing = try await verify(with: client)
            }
            onEvent(.verified(anchor: try await load(), differing: differing))
            if differing.isEmpty { return }
        }
        throw ReplicaMismatch(types: differing)
    }

    /// One long poll from the replica's anchor; a page it brings is applied. A refused anchor is left to the
    /// next catch-up, which resets.
    private func awaitChanges(from client: CareSyncClient, limit: Int?, wait: Int, onEvent: (MirrorEvent) -> Void) async throws {
        let page: ChangePage
        do {
            page = try await client.changes(patient: patient, anchor: try await load(), limit: limit, wait: max(wait, 1))
        } catch let problem as Problem where problem.code == "anchorExpired" || problem.code == "invalidAnchor" {
            return
        }
        if page.samples.isEmpty && page.deletedObjects.isEmpty {
            try await save(page.anchor)
            return
        }
        let event = AnchoredChanges.Event.page(samples: page.samples, deleted: page.deletedObjects, anchor: page.anchor)
        try apply(event)
        onEvent(.applied(event))
    }

    /// Whole seconds from now until `instant`, at least 1 and at most 60.
    private static func seconds(until instant: ContinuousClock.Instant, _ clock: ContinuousClock) -> Int {
        let left = clock.now.duration(to: instant).components.seconds
        return Int(min(max(left, 1), 60))
    }
}
