import Foundation

/// Sign-in with a clinic's OpenID Connect provider (`oidc.*`, docs/deployment.md): off while `issuer` is empty.
public struct OpenIDConnectSettings: Sendable, Hashable {
    /// The provider's issuer URL, exactly as its ID tokens carry it; empty: OpenID Connect sign-in is off.
    public var issuer = ""
    /// CareSync's client id at the provider.
    public var clientID = ""
    /// The client secret of a confidential client (sent with HTTP Basic); empty (and no file): a public client.
    public var clientSecret = ""
    /// A file holding the client secret (its first line), read at start-up: keeps the secret out of config files.
    public var clientSecretFile = ""
    /// The redirect URI registered at the provider; empty: `<first public origin>/v1/oidc/callback`.
    public var redirectURI = ""
    /// The sign-in button's label.
    public var displayName = "Clinic sign-in"
    /// The scopes requested, space-separated; `openid` is always among them.
    public var scopes = "openid"
    /// How far the provider's clock may be off ours, in seconds (`exp`, `iat`).
    public var clockSkewSeconds = 60

    /// The defaults (off).
    public init() {}

    /// Whether OpenID Connect sign-in is configured.
    public var isEnabled: Bool { !issuer.isEmpty }

    /// The client secret from `clientSecret`, else from `clientSecretFile`; nil for a public client. A missing client
    /// id or an unreadable secret file stops start-up with a one-line configuration error.
    public func resolvedSecret() throws(ConfigurationError) -> String? {
        guard isEnabled else { return nil }
        guard !clientID.isEmpty else {
            throw .invalidValue(key: ConfigurationKey.oidcClientId.rawValue, value: "", source: .defaultValue,
                                expected: "the client id registered at the provider (oidc.issuer is set)")
        }
        if !clientSecret.isEmpty { return clientSecret }
        guard !clientSecretFile.isEmpty else { return nil }
        let text: String
        do { text = try String(contentsOfFile: clientSecretFile, encoding: .utf8) } catch {
            throw .unreadableFile(path: clientSecretFile, reason: "oidc.clientSecretFile: \(error.localizedDescription)")
        }
        let secret = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !secret.isEmpty else { throw .unreadableFile(path: clientSecretFile, reason: "oidc.clientSecretFile is empty") }
        return secret
    }

    /// Whether `text` may be an issuer (or a redirect URI): an https URL, or http on a loopback host (tests, a provider
    /// beside the server); no query or fragment.
    static func isProviderURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil else { return false }
        return scheme == "https" || (scheme == "http" && (host == "localhost" || AddressRange.isLoopback(host)))
    }
}
