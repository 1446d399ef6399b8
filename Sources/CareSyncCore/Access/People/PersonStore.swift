import Foundation

/// People, their invitations and their browser sessions (issue 27). Methods are blocking and thread-safe.
public protocol PersonStore: Sendable {
    /// Stores a new invitation; `alreadyExists` when the id is taken.
    func insertInvitation(_ invitation: InvitationRecord) throws
    /// Every invitation, by creation time (for admins; without secrets, which are never stored).
    func invitations() throws -> [InvitationRecord]
    /// Redeems the invitation whose secret hashes to `secretHash`, in one transaction: marks it redeemed and
    /// creates the person `newPersonID` from it (or, for a re-invitation, returns its existing active person).
    /// Nil, with nothing changed, when there is no such invitation, it was used, or it expired at `now`.
    func redeemInvitation(secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord?
    /// The person, or nil.
    func person(id: String) throws -> PersonRecord?
    /// Every person, by creation time.
    func people() throws -> [PersonRecord]
    /// Deactivates a person and ends every open session of theirs in one transaction; false when there is no such person.
    func deactivatePerson(id: String, at: Date) throws -> Bool
    /// Stores a new session; `missing` when its person does not exist.
    func insertSession(_ session: SessionRecord) throws
    /// The session whose secret hashes to `secretHash`, or nil.
    func session(secretHash: [UInt8]) throws -> SessionRecord?
    /// The session with this public id, or nil.
    func session(id: String) throws -> SessionRecord?
    /// Every session of a person, open or ended, newest first.
    func sessions(person: String) throws -> [SessionRecord]
    /// Records a use of an open session.
    func touchSession(id: String, at: Date) throws
    /// Ends a session (idempotent); false when there is no such session.
    func endSession(id: String, at: Date) throws -> Bool
}
