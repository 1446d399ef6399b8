/// The one-time link of an invitation: `<public origin>/invite#<secret>`. The secret is in the fragment, which
/// browsers never send to a server, so it stays out of every access log and proxy log on the way.
public enum InvitationLink {
    /// The link for `secret` under `origin` (a trailing slash is dropped).
    public static func make(origin: String, secret: String) -> String {
        (origin.hasSuffix("/") ? String(origin.dropLast()) : origin) + "/invite#" + secret
    }
}
