import Foundation
import CareSyncCore
import CareSyncLocking

/// The people half of the in-memory access store.
struct PeopleState {
    var invitations: [String: InvitationRecord] = [:]
    var people: [String: PersonRecord] = [:]
    var sessions: [String: SessionRecord] = [:]
    /// Provider identities (`InMemoryAccessStore+Identities`).
    var identities: [PersonIdentity] = []
}

extension InMemoryAccessStore {
    public func insertInvitation(_ invitation: InvitationRecord) throws {
        try peopleState.withLock { s in
            guard s.invitations[invitation.id] == nil else { throw AccessStoreError.alreadyExists("invitation \(invitation.id)") }
            s.invitations[invitation.id] = invitation
        }
    }

    public func invitations() throws -> [InvitationRecord] {
        peopleState.withLock { $0.invitations.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) } }
    }

    public func redeemInvitation(secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord? {
        try peopleState.withLock { s in try Self.redeem(&s, secretHash: secretHash, newPersonID: newPersonID, now: now) }
    }

    /// Redeems an invitation in `s` (the caller holds the lock).
    static func redeem(_ s: inout PeopleState, secretHash: [UInt8], newPersonID: String, now: Date) throws -> PersonRecord? {
        guard var invitation = s.invitations.values.first(where: { $0.secretHash == secretHash }),
              invitation.redeemedAt == nil, now < invitation.expiresAt else { return nil }
        let person: PersonRecord
        if let existing = invitation.personID {
            guard let found = s.people[existing], found.isActive else { return nil }
            person = found
        } else {
            guard s.people[newPersonID] == nil else { throw AccessStoreError.alreadyExists("person \(newPersonID)") }
            person = PersonRecord(id: newPersonID, role: invitation.role, careTeams: invitation.careTeams,
                                  displayName: invitation.displayName, createdAt: now)
            s.people[newPersonID] = person
        }
        invitation.redeemedAt = now
        s.invitations[invitation.id] = invitation
        return person
    }

    public func person(id: String) throws -> PersonRecord? { peopleState.withLock { $0.people[id] } }

    public func people() throws -> [PersonRecord] {
        peopleState.withLock { $0.people.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) } }
    }

    public func deactivatePerson(id: String, at: Date) throws -> Bool {
        peopleState.withLock { s in
            guard var person = s.people[id] else { return false }
            if person.deactivatedAt == nil { person.deactivatedAt = at }
            s.people[id] = person
            for (key, session) in s.sessions where session.personID == id && session.endedAt == nil {
                s.sessions[key]?.endedAt = at
            }
            return true
        }
    }

    public func insertSession(_ session: SessionRecord) throws {
        try peopleState.withLock { s in
            guard s.people[session.personID] != nil else { throw AccessStoreError.missing("person \(session.personID)") }
            guard s.sessions[session.id] == nil else { throw AccessStoreError.alreadyExists("session \(session.id)") }
            s.sessions[session.id] = session
        }
    }

    public func session(secretHash: [UInt8]) throws -> SessionRecord? {
        peopleState.withLock { $0.sessions.values.first { $0.secretHash == secretHash } }
    }

    public func session(id: String) throws -> SessionRecord? { peopleState.withLock { $0.sessions[id] } }

    public func sessions(person: String) throws -> [SessionRecord] {
        peopleState.withLock { s in
            s.sessions.values.filter { $0.personID == person }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        }
    }

    public func touchSession(id: String, at: Date) throws {
        peopleState.withLock { s in
            guard let session = s.sessions[id], session.endedAt == nil else { return }
            s.sessions[id]?.lastUsedAt = max(session.lastUsedAt, at)
        }
    }

    public func endSession(id: String, at: Date) throws -> Bool {
        peopleState.withLock { s in
            guard let session = s.sessions[id] else { return false }
            if session.endedAt == nil { s.sessions[id]?.endedAt = at }
            return true
        }
    }
}
