import CareSyncHTTP
import Foundation
import CareSyncCore

extension CareSyncAPI {
    /// Whether `principal`'s token still grants access: its stored record is neither revoked nor expired now.
    /// One read by primary key, so a revocation by another instance or by the command line counts too.
    func tokenStillValid(_ principal: Principal) async throws -> Bool {
        let now = clock()
        if let expires = principal.token.expiresAt, expires <= now { return false }
        let access = self.access, id = principal.tokenID
        guard let record = try await blocking({ try access.token(id: id) }), record.revokedAt == nil else { return false }
        return record.expiresAt.map { $0 > now } ?? true
    }

    /// 401 `unauthorized` when `principal`'s token was revoked or expired since the request was authenticated.
    func requireTokenStillValid(_ principal: Principal) async throws {
        guard try await tokenStillValid(principal) else {
            throw HTTPError.invalidToken("The token was revoked or has expired.")
        }
    }

    /// The longest a wait of `principal` may park, `limit` or less: it wakes when the token expires.
    func parkingTime(_ principal: Principal, limit: Duration) -> Double {
        let left = Self.seconds(limit)
        guard let expires = principal.token.expiresAt else { return left }
        return max(0, min(left, expires.timeIntervalSince(clock())))
    }

    /// Ends the parked long polls and open event streams of a token just revoked on this instance.
    func tokenRevoked(_ id: String) {
        notifier.interrupt(id)
    }
}
