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

    /// Whether the token may read samples of `type`.
    public func mayRead(_ type: SampleType) -> Bool { token.readTypes?.contains(type) ?? true }
    /// Whether the token may write samples of `type`.
    public func mayWrite(_ type: SampleType) -> Bool { token.writeTypes?.contains(type) ?? true }
    /// The readable types within `requested` (nil = all types): what a feed or statistics may show.
    public func readable(_ requested: Set<SampleType>?) -> Set<SampleType>? {
        switch (requested, token.readTypes) {
        case (nil, nil): nil
        case (let r?, nil): r
        case (nil, let allowed?): allowed
        case (let r?, let allowed?): r.intersection(allowed)
        }
    }
}
