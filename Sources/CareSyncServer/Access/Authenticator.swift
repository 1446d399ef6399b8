import CareSyncHTTP
import Foundation
import CareSyncCore
import CareSyncLocking

/// Turns a request's credentials (a bearer token or a session cookie) into a `Principal`, and decides whether it
/// reaches a patient.
public final class Authenticator: Sendable {
    let store: any AccessStore
    /// Sessions of people signed in with a browser.
    let people: People
    /// Reach already proven: patients that exist, and (care team, patient) memberships. A removal from a care team or
    /// an erasure forgets its patient here (`forget`), so a positive answer stays true until then. `forgets` counts
    /// them: a reach read from the store before a forget is not kept after it (the read may predate the removal).
    private let provenReach = Locked((forgets: UInt64(0), set: Set<String>()))

    /// Checks tokens and reach against `store`.
    public init(store: any AccessStore, people: People? = nil) { self.store = store; self.people = people ?? People(store: store) }

    /// The caller presenting `credentials`: a bearer token when there is an `Authorization` header, else the session
    /// its cookie names; 401 when neither is there or valid. (The CSRF defence is `Credentials.requireSameSite`.)
    public func authenticate(_ credentials: Credentials, now: Date) throws -> Principal {
        if credentials.hasBearer || credentials.sessionSecret == nil {
            return try authenticate(authorization: credentials.authorization, now: now)
        }
        guard let secret = credentials.sessionSecret, let opened = try people.openSession(secret: secret, now: now) else {
            throw HTTPError.unauthorized("The session is invalid, has ended or has timed out; sign in again.")
        }
        return Principal(person: opened.person, session: opened.session)
    }

    /// Whether `requireReach` already succeeded for this kind of reach (no store read needed).
    public func isKnownInReach(_ principal: Principal, patient: String) -> Bool {
        switch principal.role {
        case .admin: return false
        case .device: return principal.token.patient == patient && provenReach.withLock { $0.set.contains(Self.reachKey(team: nil, patient: patient)) }
        case .therapist:
            return provenReach.withLock { r in principal.token.careTeams.contains { r.set.contains(Self.reachKey(team: $0, patient: patient)) } }
        }
    }

    /// A proven reach's name: the patient's own (a device), or through `team`. Forgetting a patient matches the suffix.
    static func reachKey(team: String?, patient: String) -> String {
        team.map { "t\u{0}\($0)\u{0}" + patient } ?? "p\u{0}" + patient
    }

    /// Forgets so far: take it before reading reach from the store, and `keep` what the read proved with it.
    var reachMark: UInt64 { provenReach.withLock { $0.forgets } }

    /// Keeps a reach read from the store after `mark` was taken, unless a forget came since (the read may predate the
    /// removal or erasure that forget announced).
    func keep(_ key: String, readAfter mark: UInt64) {
        provenReach.withLock { r in if r.forgets == mark { r.set.insert(key) } }
    }

    /// Forgets every proven reach to `patient` (taken off a care team, or erased), or to every patient (nil): the next
    /// request reads the store again (404 out of reach).
    public func forget(patient: String?) {
        provenReach.withLock { r in
            r.forgets &+= 1
            guard let patient else { r.set = []; return }
            r.set = r.set.filter { !$0.hasSuffix("\u{0}" + patient) }
        }
    }

    /// `requireReach` through the proven reach when it holds, else read from the store on `calls`.
    func requireReach(_ principal: Principal, patient: String, on calls: StoreCalls) async throws {
        guard !isKnownInReach(principal, patient: patient) else { return }
        try await calls.blocking { try self.requireReach(principal, patient: patient) }
    }

    /// The caller of a request; throws 401 for a missing, malformed, unknown, expired or revoked token.
    public func authenticate(authorization: String?, now: Date) throws -> Principal {
        guard let header = authorization?.trimmingSpaces(), !header.isEmpty else { throw HTTPError.missingToken }
        guard let space = header.utf8.firstIndex(of: UInt8(ascii: " ")), header[..<space].lowercased() == "bearer" else {
            throw HTTPError.invalidToken("The Authorization header must be 'Bearer <token>'.", error: "invalid_request")
        }
        let presented = String(header[header.utf8.index(after: space)...].trimmingSpaces())
        var invalid: HTTPError { HTTPError.invalidToken("The token is invalid, expired or revoked.") }
        guard let id = TokenSecret.id(of: presented) else { throw invalid }
        let hash = TokenSecret.hash(presented)
        // An unknown id still costs one comparison, so timing does not tell ids apart.
        let record = try store.token(id: id)
        let ok = TokenSecret.constantTimeEquals(hash, record?.secretHash ?? Array(repeating: 0, count: 32))
        guard ok, let record, record.isUsable(at: now) else { throw invalid }
        return Principal(token: record)
    }

    /// Whether the caller may touch `patient`'s data. Out of reach is 404, never 403 (api.md "Access"), so it
    /// does not reveal that the patient exists; an admin token reaches no patient's data, so it gets 404 too.
    public func requireReach(_ principal: Principal, patient: String) throws {
        let mark = reachMark
        switch principal.role {
        case .admin:
            throw HTTPError.notFound("No such patient.")
        case .device:
            guard principal.token.patient == patient, try store.patient(id: patient) != nil else {
                throw HTTPError.notFound("No such patient.")
            }
            keep(Self.reachKey(team: nil, patient: patient), readAfter: mark)
        case .therapist:
            for team in principal.token.careTeams where try store.isPatient(patient, inAnyOf: [team]) {
                keep(Self.reachKey(team: team, patient: patient), readAfter: mark)
                return
            }
            throw HTTPError.notFound("No such patient.")
        }
    }

    /// Requires the admin role (403 otherwise).
    public func requireAdmin(_ principal: Principal) throws {
        guard principal.role == .admin else { throw HTTPError.forbidden("This endpoint needs an admin token.") }
    }
}
