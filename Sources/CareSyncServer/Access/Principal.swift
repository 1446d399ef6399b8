import Foundation
import CareSyncCore

/// The authenticated caller of one request: its token's role, reach, source and type permissions.
public struct Principal: Sendable, Hashable {
    /// The token's stored record.
    public var token: TokenRecord
    /// The token id, for audit and logs.
    public var tokenID: String { token.id }
    /// The role.
    public var role: Role { token.role }
    /// The source stamped on writes.
    public var source: String { token.source }

    /// The caller holding `token`.
    public init(token: TokenRecord) { self.token = token }

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
