import CareSyncCore

/// A CBOR encoder for tests only: builds the attestation objects and COSE keys a soft authenticator sends.
enum TestCBOREncoder {
    /// The canonical encoding of `value`.
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return header(0, n)
        case .negative(let n): return header(1, n)
        case .bytes(let b): return header(2, UInt64(b.count)) + b
        case .text(let t): return header(3, UInt64(t.utf8.count)) + Array(t.utf8)
        case .array(let items): return header(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries): return header(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let b): return [b ? 0xf5 : 0xf4]
        case .null: return [0xf6]
        }
    }

    /// A map from pairs, in the given order.
    static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }

    /// The initial byte and argument of an item of `major` type.
    static func header(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let m = major << 5
        switch argument {
        case 0..<24: return [m | UInt8(argument)]
        case 24..<0x100: return [m | 24, UInt8(argument)]
        case 0x100..<0x10000: return [m | 25] + bigEndian(argument, 2)
        case 0x10000..<0x1_0000_0000: return [m | 26] + bigEndian(argument, 4)
        default: return [m | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
