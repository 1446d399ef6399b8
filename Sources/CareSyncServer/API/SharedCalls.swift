import CareSyncCore
import CareSyncLocking

/// Lets requests that ask the same question at the same moment share one answer: the first caller of a key starts
/// the call, every caller of that key while it runs awaits the same result.
///
/// When a commit wakes a thousand long polls on one patient, they all re-read the same page and their token. The key
/// says what may be shared: a feed page by the change generation its callers observed (the read starts after the first
/// of them observed it, so every sharer sees every commit its generation covers), a token's re-check by the commit
/// that ended its waits (`TokenCheck.requireStillValid(_:wokenBy:)`).
final class SharedCalls<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let inFlight = Locked([Key: Task<Value, any Error>]())

    /// The answer for `key`: `body`'s, run once for every caller that asks while it runs.
    func value(for key: Key, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let (task, owner) = inFlight.withLock { map -> (Task<Value, any Error>, Bool) in
            if let running = map[key] { return (running, false) }
            let task = Task { try await body() }
            map[key] = task
            return (task, true)
        }
        defer { if owner { inFlight.withLock { _ = $0.removeValue(forKey: key) } } }
        return try await task.value
    }
}

/// A feed page's sharing key: the query and the change generation its callers observed before asking.
struct SharedPageKey: Hashable, Sendable {
    var query: ChangeQuery
    var generation: UInt64
}
