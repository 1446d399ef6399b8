/// The relying party CareSync is (`webAuthn.*` configuration): its id, the name authenticators show, and the exact
/// origins ceremonies may come from.
public struct PasskeyRelyingParty: Hashable, Sendable {
    /// The RP ID: a registrable domain suffix of the origins' host, e.g. `care.clinic.example` or `localhost`.
    public let id: String
    /// The name shown by the authenticator, e.g. "CareSync".
    public let name: String
    /// Origins accepted verbatim in `clientDataJSON.origin`, e.g. `https://care.clinic.example` (scheme, host and a
    /// non-default port; no path and no trailing slash).
    public let origins: Set<String>

    /// A relying party.
    public init(id: String, name: String, origins: Set<String>) {
        self.id = id
        self.name = name
        self.origins = origins
    }
}
