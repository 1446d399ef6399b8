import Foundation

extension Configuration {
    /// Whether `text` is an `http://` or `https://` origin with an optional path prefix, and no query, fragment or user.
    static func isPublicOrigin(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil,
              !text.contains(where: \.isWhitespace) else { return false }
        return true
    }
}
