import CareSyncCore
import CareSyncLocking

/// Lets requests that ask the same feed question at the same moment share one store read.
///
/// When a commit wakes a thousand long polls on one patient, they all re-read the same page. A read is
/// shared only by requests that observed the same change generation before asking, and it starts after
/// the first of them observed it, so every sharer sees every commit its generation covers.
final class SharedReads: Sendable {
    struct Key: Hashable, Sendable {
        var query: ChangeQuery
        var generation: UInt64
    }
    private let inFlight = Locked([Key: Task<ChangeSet, any Error>]())

    /// The page for `query`, read once for every caller that observed `generation`.
    func read(_ query: ChangeQuery, generation: UInt64,
              _ body: @escaping @Sendable () async throws -> ChangeSet) async throws -> ChangeSet {
        let key = Key(query: query, generation: generation)
        let (task, owner) = inFlight.withLock { map -> (Task<ChangeSet, any Error>, Bool) in
            if let running = map[key] { return (running, false) }
            let task = Task { try await body() }
            map[key] = task
            return (task, true)
        }
        defer { if owner { inFlight.withLock { _ = $0.removeValue(forKey: key) } } }
        return try await task.value
    }
}
