import CareSyncCore

/// The `webAuthn.*` configuration: who CareSync is to authenticators and which origins passkey ceremonies may come from.
public struct WebAuthnSettings: Sendable, Hashable {
    /// The relying-party id: the web app's host or a registrable suffix of it; `localhost` on one machine.
    public var relyingPartyID = "localhost"
    /// The name authenticators show.
    public var relyingPartyName = "CareSync"
    /// The exact origins (`scheme://host[:port]`) accepted in `clientDataJSON.origin`; empty: see `relyingParty`.
    public var origins: [String] = []

    /// The defaults.
    public init() {}

    /// The relying party this server is: the configured origins, else those of `publicOrigins`, else
    /// `http://localhost:<port>` once the listener's port is known (tests and first runs use `--port 0`).
    public func relyingParty(publicOrigins: [String], port: Int?) -> PasskeyRelyingParty {
        var accepted = origins
        if accepted.isEmpty { accepted = publicOrigins.compactMap(Credentials.origin(of:)) }
        if accepted.isEmpty, let port { accepted = ["http://localhost:\(port)"] }
        return PasskeyRelyingParty(id: relyingPartyID, name: relyingPartyName, origins: Set(accepted))
    }

    /// Whether `text` can be a relying-party id: a lower-case host name of letters, digits, `-` and `.`; never an IP address.
    static func isRelyingPartyID(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".") && !text.hasSuffix(".") && AddressRange.parse(text) == nil
            && text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 46 }
    }

    /// Whether `text` is exactly an http(s) origin: scheme, host and an optional port, with no path, not even `/`.
    static func isOrigin(_ text: String) -> Bool {
        Configuration.isPublicOrigin(text) && Credentials.origin(of: text) == text.lowercased()
    }
}
