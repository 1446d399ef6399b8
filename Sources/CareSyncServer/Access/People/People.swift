import CareSyncCore
import CareSyncHTTP
import Foundation

/// People, invitations and sessions: what the admin API, the command line and every sign-in method (invitation
/// links now; passkeys and OpenID Connect later) call. Blocking; call it through `StoreCalls`.
///
/// A sign-in method proves who the person is, then calls `startSession(for:now:)` and answers with
/// `SessionCookie.setting(signIn.secret, https:)`; a new session id is made at every sign-in (no fixation).
public final class People: Sendable {
    /// Where people, invitations and sessions are kept.
    public let store: any AccessStore
    /// Timeouts and lifetimes.
    public let policy: SessionPolicy
    /// Registered passkeys, removed when their person is deactivated; nil where there are none.
    public let passkeys: (any PasskeyStore)?

    /// People over `store` with `policy`.
    public init(store: any AccessStore, policy: SessionPolicy = SessionPolicy(), passkeys: (any PasskeyStore)? = nil) {
        self.store = store; self.policy = policy; self.passkeys = passkeys
    }

    /// A new invitation and its secret (shown this once, stored hashed): for `role` with `careTeams`, or, with
    /// `personID`, signing that existing active person in again (a lost passkey). 422 for a bad role, missing or
    /// unknown care teams, a bad display name or an unknown or deactivated person.
    public func invite(role: Role, careTeams: [String], displayName: String, personID: String? = nil,
                       now: Date) throws -> (invitation: InvitationRecord, secret: String) {
        var role = role, careTeams = careTeams, displayName = displayName
        if let personID {
            guard let person = try store.person(id: personID), person.isActive else {
                throw HTTPError.invalidParameter("personId", "no active person has this id")
            }
            role = person.role; careTeams = person.careTeams; displayName = person.displayName
        }
        try Self.validate(role: role, careTeams: careTeams, displayName: displayName, known: Set(try store.careTeams().map(\.name)))
        let secret = SessionSecret.generate()
        let invitation = InvitationRecord(id: SessionSecret.newID(), secretHash: SessionSecret.hash(secret), role: role,
                                          careTeams: Array(Set(careTeams)), displayName: displayName, personID: personID,
                                          createdAt: now, expiresAt: now.addingTimeInterval(policy.invitationLifetime))
        try store.insertInvitation(invitation)
        return (invitation, secret)
    }

    /// Redeems an invitation's secret once: creates its person (or takes its re-invited person) and starts a session.
    /// A malformed, unknown, used or expired secret is the same 401, with nothing changed.
    public func redeemInvitation(secret: String, now: Date) throws -> SignIn {
        let refused = HTTPError.unauthorized("The invitation is invalid, expired or already used.")
        guard SessionSecret.isWellFormed(secret),
              let person = try store.redeemInvitation(secretHash: SessionSecret.hash(secret), newPersonID: SessionSecret.newID(), now: now)
        else { throw refused }
        return try startSession(for: person, now: now)
    }

    /// Starts a new session for `person` after a successful sign-in: a fresh id and secret every time, whatever cookie
    /// the browser sent (so no session id chosen beforehand is ever adopted). 401 for a deactivated person.
    public func startSession(for person: PersonRecord, now: Date) throws -> SignIn {
        guard person.isActive else { throw HTTPError.unauthorized("This person is deactivated.") }
        let secret = SessionSecret.generate()
        let session = SessionRecord(id: SessionSecret.newID(), secretHash: SessionSecret.hash(secret), personID: person.id,
                                    createdAt: now, lastUsedAt: now, expiresAt: now.addingTimeInterval(policy.absoluteTimeout))
        try store.insertSession(session)
        return SignIn(person: person, session: session, secret: secret)
    }

    /// The person and open session the cookie secret names at `now`, its last use recorded (at most once per
    /// `touchInterval`); nil for a malformed, unknown, ended, idle, expired or deactivated one.
    public func openSession(secret: String, now: Date) throws -> (person: PersonRecord, session: SessionRecord)? {
        guard SessionSecret.isWellFormed(secret), var session = try store.session(secretHash: SessionSecret.hash(secret)) else { return nil }
        guard let open = try stillOpen(session, now: now) else { return nil }
        let person = open.0
        if now.timeIntervalSince(session.lastUsedAt) >= policy.touchInterval {
            try store.touchSession(id: session.id, at: now)
            session.lastUsedAt = now
        }
        return (person, session)
    }

    /// `session` and its person read again: nil when it was ended, timed out or its person deactivated since.
    public func stillOpen(_ session: SessionRecord, now: Date) throws -> (PersonRecord, SessionRecord)? {
        guard let current = try store.session(id: session.id), current.isOpen(at: now, idle: policy.idleTimeout),
              let person = try store.person(id: current.personID), person.isActive else { return nil }
        return (person, current)
    }

    /// Ends a session of `personID`; false when it is not theirs or does not exist.
    public func endSession(id: String, of personID: String, now: Date) throws -> Bool {
        guard let session = try store.session(id: id), session.personID == personID else { return false }
        return try store.endSession(id: id, at: now)
    }

    /// Deactivates a person, ends all their sessions at once and removes their passkeys (a lost or leaving person's
    /// authenticator signs no one in again; coming back is a re-invitation); false when there is no such person.
    public func deactivate(personID: String, now: Date) throws -> Bool {
        guard try store.deactivatePerson(id: personID, at: now) else { return false }
        if let passkeys {
            for credential in try passkeys.passkeys(person: personID) {
                _ = try passkeys.deletePasskey(credentialID: credential.credentialID, person: personID)
            }
        }
        return true
    }

    /// 422 unless a therapist names 1 or more known care teams, an admin none, and the display name is 0–200 visible bytes.
    static func validate(role: Role, careTeams: [String], displayName: String, known: Set<String>) throws {
        var problems: [ValidationProblem] = []
        switch role {
        case .device: problems.append(ValidationProblem(index: nil, field: "role", message: "must be therapist or admin"))
        case .therapist:
            if careTeams.isEmpty { problems.append(ValidationProblem(index: nil, field: "careTeams", message: "a therapist needs a care team")) }
            for team in careTeams where !known.contains(team) {
                problems.append(ValidationProblem(index: nil, field: "careTeams", message: "no care team is named \(team)"))
            }
        case .admin:
            if !careTeams.isEmpty { problems.append(ValidationProblem(index: nil, field: "careTeams", message: "an admin has no care teams")) }
        }
        if displayName.utf8.count > 200 || InvisibleCharacters.occur(in: displayName) {
            problems.append(ValidationProblem(index: nil, field: "displayName", message: "must be 0–200 bytes without control or format characters"))
        }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
    }
}
