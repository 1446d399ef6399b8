import Foundation

/// What the provider client needs of HTTP: GET a JSON document, POST a form. The server's is `CurlOIDCTransport`
/// (the one outgoing client, `OutgoingHTTP`); tests pass a fake provider.
protocol OIDCTransport: Sendable {
    /// GETs `url`.
    func get(_ url: String) async -> OutgoingHTTP.Response
    /// POSTs `form` (application/x-www-form-urlencoded) to `url` with extra `headers`.
    func postForm(_ url: String, form: [(String, String)], headers: [(String, String)]) async -> OutgoingHTTP.Response
}

/// The provider's documents and token endpoint over libcurl: 10 s per exchange, at most 1 MiB answered, no redirects.
struct CurlOIDCTransport: OIDCTransport {
    /// The whole exchange's deadline.
    var timeoutMilliseconds = 10_000
    /// The most answer bytes kept.
    var maxResponseBytes = 1 << 20

    func get(_ url: String) async -> OutgoingHTTP.Response {
        await OutgoingHTTP.send(OutgoingHTTP.Request(url: url, headers: [("Accept", "application/json")],
                                                     timeoutMilliseconds: timeoutMilliseconds, maxResponseBytes: maxResponseBytes))
    }

    func postForm(_ url: String, form: [(String, String)], headers: [(String, String)]) async -> OutgoingHTTP.Response {
        let body = Array(FormEncoding.encode(form).utf8)
        return await OutgoingHTTP.send(OutgoingHTTP.Request(
            url: url, post: body, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")] + headers,
            timeoutMilliseconds: timeoutMilliseconds, maxResponseBytes: maxResponseBytes))
    }
}

/// application/x-www-form-urlencoded, as OAuth 2.0 sends forms and client credentials (RFC 6749 Appendix B).
enum FormEncoding {
    /// `name=value&…`, each part percent-encoded.
    static func encode(_ form: [(String, String)]) -> String {
        form.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986 §2.3).
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}
