import CareSyncCore
import CareSyncLocking

/// The next page of a walk through the feed, read while the page before it is written, compressed and sent.
///
/// A client catching up asks for page after page, and each page's read is the longest single part of its answer, on
/// one core. When a page of at least `minimumItems` says `hasMore`, the page after it is read at once, keyed like a
/// shared read by its query (the next anchor, the same types and limit) and the patient's change generation observed
/// before the page before it was read: a commit for the patient since then moves the generation, so the read ahead is
/// not used and the next request reads afresh. A revocation or an erasure since it started (the notifier's interrupt
/// epoch) discards it too, and an erasure here forgets the patient's. Each is used once, by the first request that
/// asks for it, and only within `lifetime`; a walk its client abandons costs at most one page read in vain.
final class PagesAhead: Sendable {
    private struct Entry {
        let task: Task<ChangeSet, any Error>
        let started: ContinuousClock.Instant
        let epoch: UInt64
    }
    private let entries = Locked([SharedPageKey: Entry]())
    /// How long a read ahead waits for its request.
    let lifetime: Duration
    /// The most reads ahead held at once.
    let capacity: Int

    /// Holds at most `capacity` reads ahead, each for `lifetime`.
    init(lifetime: Duration = .seconds(5), capacity: Int = 16) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The fewest items a page needs for its next page to be read ahead: smaller pages are read in less time than
    /// a read ahead costs when nobody asks for it.
    static let minimumItems = 500

    /// The read ahead for `key` started at interrupt `epoch`, taken (no other request gets it); nil when there is
    /// none, it is older than `lifetime`, or an interrupt came since it started.
    func take(_ key: SharedPageKey, epoch: UInt64) -> Task<ChangeSet, any Error>? {
        let now = ContinuousClock.now
        return entries.withLock { map in
            guard let entry = map.removeValue(forKey: key), entry.epoch == epoch, now - entry.started <= lifetime else { return nil }
            return entry.task
        }
    }

    /// After `page` was read for `key`: when it is large enough and has more, starts reading the page after it with
    /// `read` at interrupt `epoch`, unless that is being read already or `capacity` reads wait.
    func readAfter(_ page: ChangeSet, of key: SharedPageKey, epoch: UInt64,
                   _ read: @escaping @Sendable (ChangeQuery) async throws -> ChangeSet) {
        guard page.hasMore, page.samples.count + page.deletedObjects.count >= Self.minimumItems else { return }
        var next = key
        next.query.anchor = page.anchor
        let key = next, now = ContinuousClock.now
        entries.withLock { map in
            map = map.filter { now - $0.value.started <= lifetime }
            guard map[key] == nil, map.count < capacity else { return }
            map[key] = Entry(task: Task { try await read(key.query) }, started: now, epoch: epoch)
        }
    }

    /// Drops every read ahead of `patient` (an erasure), or of every patient (nil).
    func forget(patient: String?) {
        entries.withLock { map in map = patient.map { patient in map.filter { $0.key.query.patient != patient } } ?? [:] }
    }

    /// How many reads ahead wait now.
    var count: Int { entries.withLock { $0.count } }
}
