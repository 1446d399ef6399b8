/// Decodes the CBOR subset WebAuthn uses (RFC 8949 major types 0–5, and 7 for false, true and null) from untrusted
/// bytes: definite lengths only, every length checked against the bytes that remain before anything is allocated,
/// nesting bounded by `maximumDepth`, duplicate map keys and trailing bytes refused.
public struct CBORDecoder: Sendable {
    /// How deeply arrays and maps may nest (a COSE key or an attestation object needs 3).
    public let maximumDepth: Int

    /// A decoder allowing `maximumDepth` levels of arrays and maps.
    public init(maximumDepth: Int = 8) { self.maximumDepth = maximumDepth }

    /// The one item `bytes` holds; refuses anything after it.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw .trailingBytes(offset: end) }
        return value
    }

    /// The item starting at `offset` and the offset just after it; what follows is the caller's (authenticator data
    /// carries a COSE key followed by more data).
    public func decodePrefix(_ bytes: [UInt8], from offset: Int) throws(CBORError) -> (CBORValue, end: Int) {
        var reader = CBORReader(bytes: bytes, offset: offset, maximumDepth: maximumDepth)
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }
}

/// A cursor over the input; one per decode.
struct CBORReader {
    let bytes: [UInt8]
    var offset: Int
    let maximumDepth: Int

    /// Bytes not yet read.
    var remaining: Int { bytes.count - offset }

    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = offset
        guard remaining >= 1 else { throw .truncated(offset: start) }
        let initial = bytes[offset]
        offset += 1
        let major = initial >> 5, info = initial & 0x1f
        if major == 7 { return try simple(info, at: start) }
        if major == 6 { throw .unsupportedItem(offset: start) }
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument, at: start))
        case 3:
            guard let text = String(validating: try take(argument, at: start), as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return .text(text)
        case 4:
            // Every item takes at least one byte: a count above what remains is a lie, refused before allocating.
            guard depth < maximumDepth else { throw .tooDeep(offset: start) }
            guard argument <= UInt64(remaining) else { throw .truncated(offset: start) }
            var items: [CBORValue] = []
            items.reserveCapacity(Int(argument))
            for _ in 0..<argument { items.append(try item(depth: depth + 1)) }
            return .array(items)
        default:
            guard depth < maximumDepth else { throw .tooDeep(offset: start) }
            guard argument <= UInt64(remaining / 2) else { throw .truncated(offset: start) }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(Int(argument))
            var keys = Set<CBORValue>()
            for _ in 0..<argument {
                let keyOffset = offset
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw .duplicateKey(offset: keyOffset) }
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        }
    }

    /// The argument of a header: the value itself below 24, else the 1, 2, 4 or 8 bytes that follow.
    mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        let width: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        default: throw .unsupportedLength(offset: start)
        }
        guard remaining >= width else { throw .truncated(offset: start) }
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + width)] { value = value << 8 | UInt64(byte) }
        offset += width
        return value
    }

    /// `length` bytes, refused when fewer remain.
    mutating func take(_ length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(remaining) else { throw .truncated(offset: start) }
        let end = offset + Int(length)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    /// Major type 7: false, true and null only.
    func simple(_ info: UInt8, at start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 31: throw .unsupportedLength(offset: start)
        default: throw .unsupportedItem(offset: start)
        }
    }
}
