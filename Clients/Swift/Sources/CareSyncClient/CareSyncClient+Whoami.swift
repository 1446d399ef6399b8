import Foundation

/// The caller's own token record (`GET /v1/whoami`), without its secret.
public struct TokenIdentity: Codable, Sendable, Hashable {
    /// `device`, `therapist` or `admin`.
    public var role: String
    /// The source stamped on every sample this token writes.
    public var source: String
    /// A device token's patient.
    public var patient: String?
}

extension CareSyncClient {
    /// Who the token is: its role, source and patient.
    public func whoami() async throws -> TokenIdentity {
        try await send(Call(method: "GET", path: ["v1", "whoami"]), as: TokenIdentity.self)
    }
}
