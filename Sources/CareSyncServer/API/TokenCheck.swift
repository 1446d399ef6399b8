import CareSyncCore
import CareSyncHTTP
import Foundation

/// Whether a token authenticated earlier still grants access, read again from its stored record (a revocation by
/// another instance or by the command line counts too), whether it still reaches the patient it waits on, and how
/// long its waits may park.
struct TokenCheck: Sendable {
    let access: any AccessStore
    let calls: StoreCalls
    let clock: ServerClock
    /// Sessions, for callers signed in with a browser.
    let people: People
    /// Reach, proven or read again (a patient taken off the caller's care team is out of it).
    let reach: Authenticator
    /// Re-checks shared by the waits of one token that one commit ended.
    let sharedChecks = SharedCalls<SharedRecheck, Bool>()

    /// A re-check's sharing key: the token and the commit that ended its waits.
    struct SharedRecheck: Hashable, Sendable {
        let token: String
        let commit: WakingCommit
    }

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

    /// `requireStillValid` after a wait that the commit `key` names ended: the waits of one token that one commit ended
    /// share one read. The read starts after the first of them observed that commit's generation, so after every
    /// sharer's wait had ended: it sees every revocation made while any of them waited. A revocation on this instance
    /// moves `key.interrupts`, so a check after one never shares a read from before it.
    func requireStillValid(_ principal: Principal, wokenBy key: WakingCommit) async throws {
        guard principal.session == nil else { return try await requireStillValid(principal) }
        let valid = try await sharedChecks.value(for: SharedRecheck(token: principal.tokenID, commit: key)) { try await stillValid(principal) }
        guard valid else { throw HTTPError.invalidToken("The token was revoked or has expired.") }
    }

    /// Whether `principal` still reaches `patient` after a wait: the proven reach when it holds (a removal or an erasure
    /// anywhere forgets it), else one read of the store.
    func stillInReach(_ principal: Principal, patient: String) async throws -> Bool {
        do {
            try await reach.requireReach(principal, patient: patient, on: calls)
            return true
        } catch let error as HTTPError where error.status == .notFound {
            return false
        }
    }

    /// 404 `notFound` when `principal` no longer reaches `patient` (api.md "Access": out of reach is 404).
    func requireStillInReach(_ principal: Principal, patient: String) async throws {
        guard try await stillInReach(principal, patient: patient) else { throw HTTPError.notFound("No such patient.") }
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

/// The commit that ended a long poll's wait: its patient, the change generation seen after the wake, and the interrupt
/// epoch (revocations on this instance) seen then.
struct WakingCommit: Hashable, Sendable {
    let patient: String
    let generation: UInt64
    let interrupts: UInt64
}
