import CareSyncLocking

/// Long polls and event streams waiting now, per token: past `limit` the token's next one is refused (429),
/// so one token cannot hold every connection the server has.
final class TokenWaits: Sendable {
    private let counts = Locked([String: Int]())
    /// Most waits one token may hold at once; 0 for no limit.
    let limit: Int

    /// Counts waits per token, at most `limit` each (0: unlimited).
    init(limit: Int) { self.limit = limit }

    /// Takes a place for `token`; false (nothing taken) when it already holds `limit`.
    func enter(_ token: String) -> Bool {
        counts.withLock { counts in
            let held = counts[token, default: 0]
            guard limit == 0 || held < limit else { return false }
            counts[token] = held + 1
            return true
        }
    }

    /// Gives back a place `enter` took.
    func leave(_ token: String) {
        counts.withLock { counts in
            let held = counts[token, default: 0] - 1
            counts[token] = held > 0 ? held : nil
        }
    }

    /// Places `token` holds now.
    func held(by token: String) -> Int { counts.withLock { $0[token, default: 0] } }
}
