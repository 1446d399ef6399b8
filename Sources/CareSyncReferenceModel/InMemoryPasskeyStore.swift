import Foundation
import CareSyncCore
import CareSyncLocking

/// A `PasskeyStore` in memory: the oracle the contract suite holds the database stores to.
public final class InMemoryPasskeyStore: PasskeyStore {
    /// Credentials in insertion order.
    private let credentials = Locked<[PasskeyCredential]>([])

    /// An empty store.
    public init() {}

    public func insertPasskey(_ credential: PasskeyCredential) throws {
        try credentials.withLock { all in
            guard !all.contains(where: { $0.credentialID == credential.credentialID }) else { throw PasskeyStoreError.alreadyExists }
            all.append(Self.toMilliseconds(credential))
        }
    }

    public func passkey(credentialID: [UInt8]) throws -> PasskeyCredential? {
        credentials.withLock { $0.first { $0.credentialID == credentialID } }
    }

    public func passkeys(person: String) throws -> [PasskeyCredential] {
        credentials.withLock { all in
            all.filter { $0.personID == person }.sorted {
                $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.credentialID.lexicographicallyPrecedes($1.credentialID)
            }
        }
    }

    public func recordPasskeyUse(credentialID: [UInt8], expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date) throws -> Bool {
        credentials.withLock { all in
            guard let i = all.firstIndex(where: { $0.credentialID == credentialID }), all[i].signCount == expectedSignCount else { return false }
            all[i].signCount = signCount
            all[i].backedUp = backedUp
            all[i].lastUsedAt = at
            all[i] = Self.toMilliseconds(all[i])
            return true
        }
    }

    public func deletePasskey(credentialID: [UInt8], person: String) throws -> Bool {
        credentials.withLock { all in
            guard let i = all.firstIndex(where: { $0.credentialID == credentialID && $0.personID == person }) else { return false }
            all.remove(at: i)
            return true
        }
    }

    /// Times as the databases keep them: whole milliseconds.
    private static func toMilliseconds(_ c: PasskeyCredential) -> PasskeyCredential {
        func ms(_ d: Date) -> Date { Date(timeIntervalSince1970: (d.timeIntervalSince1970 * 1000).rounded() / 1000) }
        return PasskeyCredential(credentialID: c.credentialID, personID: c.personID, userHandle: c.userHandle, publicKeyCOSE: c.publicKeyCOSE,
                                 algorithm: c.algorithm, signCount: c.signCount, aaguid: c.aaguid, backupEligible: c.backupEligible,
                                 backedUp: c.backedUp, name: c.name, createdAt: ms(c.createdAt), lastUsedAt: c.lastUsedAt.map(ms))
    }
}
