import Crypto

/// One file of the therapist web app, embedded in the binary, with its validator.
struct WebAppAsset: Sendable {
    /// The URL path it is served at.
    let path: String
    /// Its `Content-Type`.
    let contentType: String
    /// Its bytes.
    let bytes: [UInt8]
    /// A weak entity tag from the bytes' SHA-256: the server may gzip the body on the way out, and a weak
    /// tag says the gzipped and the plain answer are the same file.
    let etag: String

    /// An asset at `path` with `bytes`.
    init(path: String, contentType: String, bytes: [UInt8]) {
        self.path = path; self.contentType = contentType; self.bytes = bytes
        let digest = SHA256.hash(data: bytes).prefix(16)
        etag = "W/\"" + digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined() + "\""
    }

    /// Whether an `If-None-Match` value names this asset's tag (weak comparison; `*` matches any).
    func isMatched(by ifNoneMatch: String) -> Bool {
        let opaque = Self.opaque(etag)
        for candidate in ifNoneMatch.split(separator: ",") {
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" || Self.opaque(tag) == opaque { return true }
        }
        return false
    }

    /// The tag without its weakness prefix.
    private static func opaque(_ tag: some StringProtocol) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}
