/// Line-level syntax of RFC 9112: request line, field lines, chunk-size lines.
extension RequestParser {
    /// Whether `byte` is a token character (RFC 9110 §5.6.2).
    static func isTChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `method SP request-target SP HTTP-version`, single spaces, nothing else.
    mutating func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) throws(ParseError) {
        guard let sp1 = line.firstIndex(of: 32), sp1 > 0 else { throw .badRequest("malformed request line") }
        guard let sp2 = line[(sp1 + 1)...].firstIndex(of: 32), sp2 > sp1 + 1 else {
            throw .badRequest("malformed request line")
        }
        for byte in line[..<sp1] where !Self.isTChar(byte) { throw .badRequest("invalid method") }
        let targetBytes = line[(sp1 + 1)..<sp2]
        for byte in targetBytes where byte < 0x21 || byte > 0x7E || byte == UInt8(ascii: "#") {
            throw .badRequest("invalid character in request target")
        }
        let version = line[(sp2 + 1)...]
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
              let maj = Self.digit(version[version.startIndex + 5]),
              version[version.startIndex + 6] == UInt8(ascii: "."),
              let min = Self.digit(version[version.startIndex + 7])
        else { throw .badRequest("malformed HTTP version") }
        guard maj == 1, min <= 1 else { throw .versionNotSupported }
        method = String(decoding: line[..<sp1], as: UTF8.self)
        guard Self.knownMethods.contains(method) else { throw .notImplemented("method \(method)") }
        major = maj
        minor = min
        target = try Self.originForm(String(decoding: targetBytes, as: UTF8.self), method: method)
    }

    /// The methods of RFC 9110 and PATCH; any other token is answered 501 (RFC 9110 §9.1).
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// Reduces a request-target to origin-form: "/p?q" stays, "http://h/p?q" becomes "/p?q",
    /// "*" is kept for OPTIONS; anything else is a 400.
    static func originForm(_ target: String, method: String) throws(ParseError) -> String {
        if target.utf8.first == UInt8(ascii: "/") { return target }
        if target == "*" {
            guard method == "OPTIONS" else { throw .badRequest("asterisk-form outside OPTIONS") }
            return target
        }
        let lower = target.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            let cut = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            let authority = rest[..<cut]
            guard !authority.isEmpty, authority.utf8.allSatisfy(isAuthorityChar) else {
                throw .badRequest("invalid authority in request target")
            }
            guard cut < rest.endIndex else { return "/" }
            let tail = String(rest[cut...])
            return tail.hasPrefix("?") ? "/" + tail : tail
        }
        if method == "CONNECT" { throw .notImplemented("CONNECT") }
        throw .badRequest("unsupported request-target form")
    }

    /// host [":" port] characters of RFC 3986 (unreserved, sub-delims, pct-encoded, IP-literal brackets);
    /// no userinfo, which RFC 9110 forbids in http(s) URIs.
    static func isAuthorityChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("-._~%!$&'()*+,;=:[]".utf8).contains(byte)
        }
    }

    /// `field-name ":" OWS field-value OWS`; obs-fold, space before the colon, controls → 400.
    static func parseField(_ line: UnsafeBufferPointer<UInt8>) throws(ParseError) -> (name: String, value: String) {
        guard let first = line.first, first != 32, first != 9 else { throw .badRequest("obs-fold or leading whitespace") }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { throw .badRequest("field without name") }
        for byte in line[..<colon] where !isTChar(byte) { throw .badRequest("invalid character in field name") }
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == 32 || line[start] == 9 { start += 1 }
        // Trailing spaces are dropped; a trailing HTAB is kept, so "chunked<HTAB>" is no coding we know
        // (llhttp rejects it; we never accept framing llhttp rejects).
        while end > start, line[end - 1] == 32 { end -= 1 }
        for byte in line[start..<end] where (byte < 0x20 && byte != 9) || byte == 0x7F {
            throw .badRequest("control character in field value")
        }
        return (String(decoding: line[..<colon], as: UTF8.self), String(decoding: line[start..<end], as: UTF8.self))
    }

    /// `chunk-size *( ";" token [ "=" ( token / quoted-string ) ] )`: returns the size.
    /// No whitespace, no sign, no `0x`; more than 16 significant hex digits overflow → 400.
    static func parseChunkLine(_ line: UnsafeBufferPointer<UInt8>) throws(ParseError) -> UInt64 {
        var i = 0
        var size: UInt64 = 0
        while i < line.count, let value = hexDigit(line[i]) {
            guard size >> 60 == 0 else { throw .badRequest("chunk size overflow") }
            size = size << 4 | UInt64(value)
            i += 1
        }
        guard i > 0 else { throw .badRequest("invalid chunk size") }
        while i < line.count {
            guard line[i] == UInt8(ascii: ";") else { throw .badRequest("invalid chunk size") }
            i += 1
            let nameStart = i
            while i < line.count, isTChar(line[i]) { i += 1 }
            guard i > nameStart else { throw .badRequest("invalid chunk extension") }
            guard i < line.count, line[i] == UInt8(ascii: "=") else { continue }
            i += 1
            if i < line.count, line[i] == UInt8(ascii: "\"") {
                i += 1
                var closed = false
                while i < line.count {
                    let byte = line[i]
                    if byte == UInt8(ascii: "\"") { closed = true; i += 1; break }
                    if byte == UInt8(ascii: "\\") {
                        guard i + 1 < line.count, isQuotedText(line[i + 1]) || line[i + 1] == 34 || line[i + 1] == 92 else {
                            throw .badRequest("invalid chunk extension")
                        }
                        i += 2
                        continue
                    }
                    guard isQuotedText(byte) else { throw .badRequest("invalid chunk extension") }
                    i += 1
                }
                guard closed else { throw .badRequest("invalid chunk extension") }
            } else {
                let valueStart = i
                while i < line.count, isTChar(line[i]) { i += 1 }
                guard i > valueStart else { throw .badRequest("invalid chunk extension") }
            }
        }
        return size
    }

    /// qdtext: HTAB, SP, visible characters other than `"` and `\`, obs-text.
    static func isQuotedText(_ byte: UInt8) -> Bool {
        byte == 9 || byte == 32 || byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte) || byte >= 0x80
    }

    /// The value of a hex digit, or nil.
    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The value of a decimal digit, or nil.
    static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
