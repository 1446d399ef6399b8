import CareSyncCore
import CareSyncHTTP
import Foundation

/// People, invitations and sessions as JSON (never a secret or a hash).
enum PeopleWire {
    /// A person as the API answers it.
    static func encode(_ p: PersonRecord) -> JSONValue {
        ["id": .string(p.id), "role": .string(p.role.rawValue), "careTeams": .array(p.careTeams.map(JSONValue.string)),
         "displayName": .string(p.displayName), "createdAt": .string(RFC3339.format(p.createdAt)),
         "deactivatedAt": .optional(p.deactivatedAt.map(RFC3339.format))]
    }

    /// An invitation as the API answers it (without its secret).
    static func encode(_ i: InvitationRecord) -> JSONValue {
        ["id": .string(i.id), "role": .string(i.role.rawValue), "careTeams": .array(i.careTeams.map(JSONValue.string)),
         "displayName": .string(i.displayName), "personId": .optional(i.personID),
         "createdAt": .string(RFC3339.format(i.createdAt)), "expiresAt": .string(RFC3339.format(i.expiresAt)),
         "redeemedAt": .optional(i.redeemedAt.map(RFC3339.format))]
    }

    /// A session as the API answers it: its public id and times; `current` when it is the caller's own.
    static func encode(_ s: SessionRecord, current: Bool, idle: TimeInterval) -> JSONValue {
        ["id": .string(s.id), "createdAt": .string(RFC3339.format(s.createdAt)), "lastUsedAt": .string(RFC3339.format(s.lastUsedAt)),
         "expiresAt": .string(RFC3339.format(s.expiresAt)),
         "idleExpiresAt": .string(RFC3339.format(min(s.expiresAt, s.lastUsedAt.addingTimeInterval(idle)))),
         "endedAt": .optional(s.endedAt.map(RFC3339.format)), "current": .bool(current)]
    }

    /// The answer to a sign-in: the person, the session and its CSRF token.
    static func encode(_ signIn: SignIn, idle: TimeInterval) -> JSONValue {
        ["person": encode(signIn.person), "session": encode(signIn.session, current: true, idle: idle),
         "csrfToken": .string(signIn.csrfToken)]
    }
}
