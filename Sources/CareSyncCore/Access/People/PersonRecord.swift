import Foundation

/// A therapist or admin who signs in with a browser (issue 27): never a device.
public struct PersonRecord: Hashable, Sendable {
    /// The public id, 16 lowercase hex digits (in URLs and, as `p:<id>`, in audit records).
    public var id: String
    /// `therapist` or `admin`.
    public var role: Role
    /// The care teams a therapist reaches (as a therapist token's); empty for an admin.
    public var careTeams: [String]
    /// The name shown in the web app; may be empty.
    public var displayName: String
    /// When the person was created (their invitation redeemed).
    public var createdAt: Date
    /// When an admin deactivated the person; nil while active.
    public var deactivatedAt: Date?

    /// A person record.
    public init(id: String, role: Role, careTeams: [String], displayName: String, createdAt: Date, deactivatedAt: Date? = nil) {
        self.id = id; self.role = role; self.careTeams = careTeams.sorted(); self.displayName = displayName
        self.createdAt = createdAt; self.deactivatedAt = deactivatedAt
    }

    /// Whether the person may sign in and use sessions.
    public var isActive: Bool { deactivatedAt == nil }
}

/// A one-time invitation: the link's secret is kept only as its SHA-256.
public struct InvitationRecord: Hashable, Sendable {
    /// The public id (16 hex digits), for lists and audit; never the secret.
    public var id: String
    /// SHA-256 of the secret in the link.
    public var secretHash: [UInt8]
    /// The role the new person gets.
    public var role: Role
    /// The care teams the new person gets (therapists).
    public var careTeams: [String]
    /// The display name the new person gets.
    public var displayName: String
    /// An existing person this invitation signs in again (a re-invitation after a lost passkey); nil makes a new person.
    public var personID: String?
    /// When it was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date
    /// When it was redeemed; nil while unused.
    public var redeemedAt: Date?

    /// An invitation record.
    public init(id: String, secretHash: [UInt8], role: Role, careTeams: [String], displayName: String, personID: String? = nil,
                createdAt: Date, expiresAt: Date, redeemedAt: Date? = nil) {
        self.id = id; self.secretHash = secretHash; self.role = role; self.careTeams = careTeams.sorted()
        self.displayName = displayName; self.personID = personID
        self.createdAt = createdAt; self.expiresAt = expiresAt; self.redeemedAt = redeemedAt
    }
}

/// A browser session of a person: the cookie's secret is kept only as its SHA-256.
public struct SessionRecord: Hashable, Sendable {
    /// The public id (16 hex digits), for lists and revocation; never the cookie's secret.
    public var id: String
    /// SHA-256 of the cookie's secret.
    public var secretHash: [UInt8]
    /// Whose session it is.
    public var personID: String
    /// When it started (the sign-in).
    public var createdAt: Date
    /// When it was last used (recorded at most once a minute); the idle timeout counts from here.
    public var lastUsedAt: Date
    /// The absolute end, whatever the use.
    public var expiresAt: Date
    /// When it was ended (sign-out, revocation, deactivation); nil while open.
    public var endedAt: Date?

    /// A session record.
    public init(id: String, secretHash: [UInt8], personID: String, createdAt: Date, lastUsedAt: Date, expiresAt: Date, endedAt: Date? = nil) {
        self.id = id; self.secretHash = secretHash; self.personID = personID; self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt; self.expiresAt = expiresAt; self.endedAt = endedAt
    }

    /// Whether the session grants access at `now` with the idle timeout `idle`.
    public func isOpen(at now: Date, idle: TimeInterval) -> Bool {
        endedAt == nil && now < expiresAt && now < lastUsedAt.addingTimeInterval(idle)
    }
}
