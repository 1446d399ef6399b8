/// One decoded CBOR data item (RFC 8949), limited to what WebAuthn uses: integers, byte and text strings, arrays,
/// maps, `false`, `true` and `null`. Floats, tags, `undefined` and indefinite lengths are refused by `CBORDecoder`.
public indirect enum CBORValue: Hashable, Sendable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer -1 - n, stored as n (so the whole range -2^64 ... -1 fits).
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, its pairs in encoded order (keys are unique; the decoder refuses duplicates).
    case map([CBORMapEntry])
    /// Major type 7, simple values 20 and 21.
    case bool(Bool)
    /// Major type 7, simple value 22.
    case null
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Hashable, Sendable {
    /// The key.
    public let key: CBORValue
    /// The value.
    public let value: CBORValue

    /// A pair.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}

extension CBORValue {
    /// A CBOR integer for `value` (major type 0 when ≥ 0, else 1).
    public static func integer(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The value as a signed integer, or nil when it is no integer or does not fit an `Int64`.
    public var int64: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The bytes of a byte string, else nil.
    public var byteString: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// The text of a text string, else nil.
    public var textString: String? {
        if case .text(let t) = self { return t }
        return nil
    }

    /// The pairs of a map, else nil.
    public var mapEntries: [CBORMapEntry]? {
        if case .map(let m) = self { return m }
        return nil
    }

    /// The value under `key` when this is a map holding it, else nil.
    public subscript(key: CBORValue) -> CBORValue? {
        mapEntries?.first { $0.key == key }?.value
    }

    /// The value under the text key `key` when this is a map holding it, else nil.
    public subscript(text key: String) -> CBORValue? { self[.text(key)] }

    /// The value under the integer key `key` when this is a map holding it, else nil.
    public subscript(int key: Int64) -> CBORValue? { self[.integer(key)] }
}
