import Foundation
import CareSyncCore

/// The authenticated caller of one request: its token's role, reach, source and type permissions. A person signed in
/// with a browser session is a caller too: their record stands in as a token of their role and care teams
/// (`init(person:session:)`), so every check after authentication is the one bearer tokens pass.
public struct Principal: Sendable, Hashable {
    /// The token's stored record (for a session: the one `init(person:session:)` derives from the person).
    public var token: TokenRecord { records.token }
    /// The person, when the caller came with a session cookie.
    public var person: PersonRecord? { records.person }
    /// The session, when the caller came with a session cookie.
    public var session: SessionRecord? { records.session }
    /// The records, held once: a request's async frames keep several copies of its caller, each one pointer this way
    /// (a parked long poll holds its frames until it is answered).
    private let records: Records
    /// The token id, for audit and logs.
    public var tokenID: String { token.id }
    /// The role.
    public var role: Role { token.role }
    /// The source stamped on writes.
    public var source: String { token.source }

    /// The caller holding `token`.
    public init(token: TokenRecord) { records = Records(token: token, person: nil, session: nil) }

    /// The caller signed in as `person` with `session`: the reach and role of a token of the person's role and care
    /// teams, every type readable and writable, `p:<person id>` in audit records and `person.<id>` as source.
    public init(person: PersonRecord, session: SessionRecord) {
        let token = TokenRecord(id: Self.personTokenID(person.id), secretHash: [], role: person.role, patient: nil,
                                careTeams: person.careTeams, source: "person.\(person.id)", readTypes: nil, writeTypes: nil,
                                createdAt: person.createdAt, expiresAt: nil)
        records = Records(token: token, person: person, session: session)
    }

    /// The caller's records, never changed once made.
    private final class Records: Sendable {
        let token: TokenRecord
        let person: PersonRecord?
        let session: SessionRecord?

        init(token: TokenRecord, person: PersonRecord?, session: SessionRecord?) {
            self.token = token; self.person = person; self.session = session
        }
    }

    /// Equal when their records are.
    public static func == (a: Principal, b: Principal) -> Bool {
        a.records === b.records || (a.token == b.token && a.person == b.person && a.session == b.session)
    }

    /// Hashes the records.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(token)
        hasher.combine(person)
        hasher.combine(session)
    }

    /// How audit records, logs and budgets name a person: `p:` and their id (never a session's id or secret).
    public static func personTokenID(_ personID: String) -> String { "p:" + personID }

    /// Whether the token may read samples of `type`; a correlation needs every one of its components, as
    /// HealthKit authorizes a correlation's quantity types, never the correlation itself.
    public func mayRead(_ type: SampleType) -> Bool { Self.allows(token.readTypes, type) }
    /// Whether the token may write samples of `type`; a correlation needs every one of its components.
    public func mayWrite(_ type: SampleType) -> Bool { Self.allows(token.writeTypes, type) }
    /// The readable types within `requested` (nil = all types): what a feed or statistics may show.
    public func readable(_ requested: Set<SampleType>?) -> Set<SampleType>? {
        let allowed = token.readTypes.map { types in
            types.union(SampleType.all.filter { $0.kind == .correlation && Self.allows(types, $0) })
        }
        switch (requested, allowed) {
        case (nil, nil): return nil
        case (let r?, nil): return r
        case (nil, let allowed?): return allowed
        case (let r?, let allowed?): return r.intersection(allowed)
        }
    }

    /// The correlations holding `type` that the token may read (nil: every one): what statistics of `type` may count.
    public func readableCorrelations(of type: SampleType) -> Set<SampleType>? {
        guard token.readTypes != nil else { return nil }
        return Set(type.correlations.map(\.correlation).filter(mayRead))
    }

    /// Whether a token's type list (nil: every type) covers `type`, or all of a correlation's components.
    static func allows(_ types: Set<SampleType>?, _ type: SampleType) -> Bool {
        guard let types else { return true }
        return type.kind == .correlation ? type.components.allSatisfy(types.contains) : types.contains(type)
    }
}
