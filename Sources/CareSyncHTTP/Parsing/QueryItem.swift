/// One `name=value` pair of a query string, percent-decoded.
public struct QueryItem: Sendable, Hashable {
    /// The decoded name.
    public var name: String
    /// The decoded value; nil when the item had no `=`.
    public var value: String?

    /// Creates a query item.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// Splits a request-target into its (still encoded) path and its decoded query items.
    static func split(target: String) -> (path: String, query: [QueryItem]) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, []) }
        let path = String(target[..<mark])
        let queryText = target[target.index(after: mark)...]
        return (path, parse(query: Substring(queryText)))
    }

    /// Parses `a=1&b=x%20y&c` into items; `+` is kept as a literal plus sign (RFC 3986, not forms).
    /// Split on the UTF-8 bytes of `&` and `=` (ASCII, so every cut is on a character boundary).
    static func parse(query: Substring) -> [QueryItem] {
        var items: [QueryItem] = []
        let bytes = query.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if start < end {
                let part = query[start..<end]
                if let eq = part.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    items.append(QueryItem(name: percentDecoded(part[..<eq]),
                                           value: percentDecoded(part[part.utf8.index(after: eq)...])))
                } else {
                    items.append(QueryItem(name: percentDecoded(part), value: nil))
                }
            }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return items
    }

    /// Decodes `%XX` escapes; a malformed escape is kept as it is.
    static func percentDecoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
               let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
