import Foundation

/// A patient's change feed from a persisted anchor, as an `AsyncSequence`: the server side of
/// `HKAnchoredObjectQuery`.
///
/// **When the anchor is saved.** The anchor of a page is saved to the ``AnchorStore`` when the caller
/// asks for the *next* event (or calls ``Iterator/commit()``), never when the page is handed out.
/// So apply each page completely before asking for more:
///
/// ```swift
/// for try await event in client.anchoredChanges(patient: "alice", store: FileAnchorStore(url: file)) {
///     switch event {
///     case .page(let samples, let deleted, _): replica.apply(samples, deleted)   // by uuid
///     case .reset: replica.removeAll()                                          // a full read follows
///     }
/// }
/// ```
///
/// A crash after applying a page but before the next `next()` re-delivers that page on the next run:
/// nothing is lost, and applying by uuid makes the second delivery harmless.
///
/// **Resets.** A 410 `anchorExpired` or 400 `invalidAnchor` yields ``Event/reset(_:)``: drop what you
/// hold of this feed; the sequence then reads again from no anchor (every live sample). The stored
/// anchor is forgotten when the caller asks for the next event.
///
/// **End.** Without `wait`, the sequence ends at the head (`hasMore` false) after saving the last anchor.
/// With `wait`, it never ends: at the head it long-polls up to `wait` seconds per request. Empty pages
/// are not handed out; their anchors are saved at once (nothing to apply).
public struct AnchoredChanges: AsyncSequence, Sendable {
    /// What the feed hands out.
    public enum Event: Sendable, Hashable {
        /// Changes to apply by uuid, then the anchor that ends them (saved on the next `next()`).
        case page(samples: [Sample], deleted: [DeletedObject], anchor: String)
        /// The anchor no longer works (`anchorExpired`, `invalidAnchor`): drop this feed's data; a full read follows.
        case reset(Problem)
    }

    let client: CareSyncClient
    let patient: String
    let store: any AnchorStore
    let filter: FeedFilter
    let limit: Int?
    let wait: Int?

    public func makeAsyncIterator() -> Iterator {
        Iterator(changes: self)
    }

    /// Reads pages on demand; saves each page's anchor when the next event is asked for.
    public struct Iterator: AsyncIteratorProtocol {
        private enum Pending { case none, save(String?) }

        let changes: AnchoredChanges
        private var loaded = false
        private var anchor: String?
        private var pending = Pending.none
        private var atHead = false

        init(changes: AnchoredChanges) { self.changes = changes }

        /// Saves the anchor of the page handed out last, now (it is saved on the next `next()` anyway).
        public mutating func commit() async throws {
            guard case .save(let value) = pending else { return }
            try await changes.store.save(value)
            pending = .none
        }

        public mutating func next() async throws -> Event? {
            try await commit()
            if !loaded {
                anchor = try await changes.store.load()
                loaded = true
            }
            while true {
                if atHead && changes.wait == nil { return nil }
                let page: ChangePage
                do {
                    page = try await changes.client.changes(patient: changes.patient, anchor: anchor, filter: changes.filter,
                                                            limit: changes.limit, wait: atHead ? changes.wait : nil)
                } catch let problem as Problem where problem.code == "anchorExpired" || problem.code == "invalidAnchor" {
                    guard anchor != nil else { throw problem }
                    anchor = nil
                    atHead = false
                    pending = .save(nil)
                    return .reset(problem)
                }
                anchor = page.anchor
                atHead = !page.hasMore
                if page.samples.isEmpty && page.deletedObjects.isEmpty {
                    try await changes.store.save(page.anchor)
                    continue
                }
                pending = .save(page.anchor)
                return .page(samples: page.samples, deleted: page.deletedObjects, anchor: page.anchor)
            }
        }
    }
}

extension CareSyncClient {
    /// `patient`'s change feed from the anchor in `store`; see ``AnchoredChanges`` for when anchors are saved.
    /// `wait` (1–60 s) makes it live: at the head it long-polls instead of ending.
    public func anchoredChanges(patient: String, store: any AnchorStore, filter: FeedFilter = FeedFilter(),
                                limit: Int? = nil, wait: Int? = nil) -> AnchoredChanges {
        AnchoredChanges(client: self, patient: patient, store: store, filter: filter, limit: limit, wait: wait)
    }
}
