import CareSyncCore
import Foundation

/// The first run: with nobody to sign in yet, `caresync serve` prints a one-time link that makes the first admin.
public enum FirstRun {
    /// A new admin invitation's link when the store holds no person yet; nil once anyone exists.
    public static func firstAdminLink(people: People, origin: String, now: Date) throws -> String? {
        guard try people.store.people().isEmpty else { return nil }
        let (_, secret) = try people.invite(role: .admin, careTeams: [], displayName: "", now: now)
        return InvitationLink.make(origin: origin, secret: secret)
    }
}

extension Configuration {
    /// The origin invitation links start with: the first of `publicOrigins`, else this listener's
    /// `http://host:port` (reachable only where the server runs, which is where the first link is opened), named
    /// `localhost` for a loopback or wildcard address: passkeys need a host name (an IP address is never a WebAuthn
    /// relying-party id), and `webAuthn.relyingPartyID` is `localhost` by default.
    public func linkOrigin(port: Int) -> String {
        if let first = publicOrigins.first { return first }
        let local = ["0.0.0.0", "::", "127.0.0.1", "::1"].contains(host)
        let shown = local ? "localhost" : (host.contains(":") ? "[\(host)]" : host)
        return "http://\(shown):\(port)"
    }
}
