import CareSyncHTTP

/// A strict JSON parser (RFC 8259) over bytes, producing `JSONValue`s: no probing by type, no
/// intermediate `Data`, a depth limit, no key twice in one object, and nothing accepted after the value but whitespace.
struct JSONParser {
    /// Why the text is not accepted; `message` is safe to show the client.
    struct Failure: Error {
        var message = "The body is not valid JSON."
    }
    private let bytes: [UInt8]
    private var i = 0
    private let maxDepth = 64

    /// Parses a whole document.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw Failure() }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard i + count <= bytes.count else { throw Failure() }
        let ok = literal.withUTF8Buffer { buffer in (0..<count).allSatisfy { bytes[i + $0] == buffer[$0] } }
        guard ok else { throw Failure() }
        i += count
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < maxDepth, i < bytes.count else { throw Failure() }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        i += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw Failure() }
            let key = try string()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw Failure() }
            i += 1
            skipWhitespace()
            guard members[key] == nil else {
                throw Failure(message: "The body repeats the key " + JSONText.quoted(key) + " in one object; each key may appear once.")
            }
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            guard i < bytes.count else { throw Failure() }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "}") else { throw Failure() }
            i += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        i += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard i < bytes.count else { throw Failure() }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            guard bytes[i] == UInt8(ascii: "]") else { throw Failure() }
            i += 1
            return .array(elements)
        }
    }

    private mutating func string() throws(Failure) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
            guard bytes[i] >= 0x20 else { throw Failure() }
            i += 1
        }
        guard i < bytes.count else { throw Failure() }
        var out = Array(bytes[start..<i])
        while bytes[i] == UInt8(ascii: "\\") {
            guard i + 1 < bytes.count else { throw Failure() }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw Failure() }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Failure() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw Failure()
                }
                guard let u = Unicode.Scalar(scalar) else { throw Failure() }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw Failure()
            }
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
                guard bytes[i] >= 0x20 else { throw Failure() }
                out.append(bytes[i])
                i += 1
            }
            guard i < bytes.count else { throw Failure() }
        }
        i += 1  // closing quote
        guard let s = String(validating: out, as: UTF8.self) else { throw Failure() }
        return s
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw Failure() }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw Failure()
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// A number; an integer literal beyond ±2^53 that fits Int64 stays exact as `.integer` (a syncVersion may be Int64.max).
    private mutating func number() throws(Failure) -> JSONValue {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            return i - s
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count else { throw Failure() }
        if bytes[i] == 48 { i += 1 } else { guard digits() > 0 else { throw Failure() } }
        var integral = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") { i += 1; integral = false; guard digits() > 0 else { throw Failure() } }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1; integral = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw Failure() }
        }
        if integral, i - start <= 15 {
            var v: Int64 = 0
            var k = start
            let negative = bytes[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            while k < i { v = v * 10 + Int64(bytes[k] - 48); k += 1 }
            return .number(Double(negative ? -v : v))
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if integral, let v = Int64(text) { return JSONValue.exactly(v) }
        guard let d = Double(text) else { throw Failure() }
        return .number(d)
    }
}
