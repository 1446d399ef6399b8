import Foundation

/// The session cookie: `__Host-caresync_session` with `Secure` when the browser reached the server over https (itself
/// or through a trusted proxy), `caresync_session` without it on plain http (which only loopback may use).
/// Always `HttpOnly`, `SameSite=Lax`, `Path=/`, and no `Domain`; no `Max-Age`, so it ends with the browser too.
public enum SessionCookie {
    /// The name over https: the `__Host-` prefix makes browsers refuse it without `Secure`, with a `Domain` or another path.
    public static let secureName = "__Host-caresync_session"
    /// The name on loopback http.
    public static let plainName = "caresync_session"

    /// The cookie's name for a request that came over https or not.
    public static func name(https: Bool) -> String { https ? secureName : plainName }

    /// The `Set-Cookie` value starting a session with `secret`.
    public static func setting(_ secret: String, https: Bool) -> String {
        "\(name(https: https))=\(secret); Path=/; HttpOnly; SameSite=Lax" + (https ? "; Secure" : "")
    }

    /// The `Set-Cookie` value removing the cookie.
    public static func clearing(https: Bool) -> String {
        "\(name(https: https))=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (https ? "; Secure" : "")
    }

    /// The session secret in a `Cookie` header, under the name this transport uses; nil when absent.
    public static func secret(in cookieHeader: String?, https: Bool) -> String? {
        guard let cookieHeader else { return nil }
        let wanted = name(https: https)
        for pair in cookieHeader.split(separator: ";") {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == wanted else { continue }
            return String(trimmed[trimmed.index(after: equals)...])
        }
        return nil
    }
}
