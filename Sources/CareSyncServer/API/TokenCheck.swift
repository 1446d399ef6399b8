import CareSyncCore
import CareSyncHTTP
import Foundation

/// Whether a token authenticated earlier still grants access, read again from its stored record (a revocation by
/// another instance or by the command line counts too), and how long its waits may park.
struct TokenCheck: Sendable {
    let access: any AccessStore
    let calls: StoreCalls
    let clock: ServerClock
    /// Sessions, for callers signed in with a browser.
    let people: People

    /// Whether `principal`'s token still grants access: its stored record is neither revoked nor expired now.
    /// One read by primary key.
    func stillValid(_ principal: Principal) async throws -> Bool {
        let now = clock.now()
        if let session = principal.session {
            let people = self.people
            return try await calls.blocking { try people.stillOpen(session, now: now) != nil }
        }
        if let expires = principal.token.expiresAt, expires <= now { return false }
        let access = self.access, id = principal.tokenID
        guard let record = try await calls.blocking({ try access.token(id: id) }), record.revokedAt == nil else { return false }
        return record.expiresAt.map { $0 > now } ?? true
    }

    /// 401 `unauthorized` when `principal`'s token was revoked or expired since the request was authenticated.
    func requireStillValid(_ principal: Principal) async throws {
        guard try await stillValid(principal) else {
            throw HTTPError.invalidToken("The token was revoked or has expired.")
        }
    }

    /// The longest a wait of `principal` may park, `limit` or less: it wakes when the token expires.
    func parkingTime(_ principal: Principal, limit: Duration) -> Double {
        let left = Self.seconds(limit)
        guard let expires = principal.session?.expiresAt ?? principal.token.expiresAt else { return left }
        return max(0, min(left, expires.timeIntervalSince(clock.now())))
    }

    /// A duration as seconds.
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
