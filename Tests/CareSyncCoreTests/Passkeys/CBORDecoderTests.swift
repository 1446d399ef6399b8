import CareSyncCore
import Testing

/// The CBOR decoder on valid items and on untrusted malformed input, which it must refuse without crashing or
/// allocating what a length claims.
struct CBORDecoderTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = [], chars = Array(hex.filter { !$0.isWhitespace })
        while chars.count >= 2 { out.append(UInt8(String(chars[0...1]), radix: 16)!); chars.removeFirst(2) }
        return out
    }

    @Test(arguments: [
        ("00", CBORValue.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
        ("1bffffffffffffffff", .unsigned(.max)), ("20", .negative(0)), ("3903e7", .negative(999)),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("6449455446", .text("IETF")), ("62c3bc", .text("ü")),
        ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
        ("a201020304", .map([CBORMapEntry(key: .unsigned(1), value: .unsigned(2)), CBORMapEntry(key: .unsigned(3), value: .unsigned(4))])),
    ])
    func decodesTheRFC8949Examples(hex: String, expected: CBORValue) throws {
        #expect(try CBORDecoder().decode(Self.bytes(hex)) == expected)
    }

    @Test func integersConvertBothWays() {
        #expect(CBORValue.negative(6).int64 == -7 && CBORValue.integer(-257) == .negative(256) && CBORValue.integer(3) == .unsigned(3))
        #expect(CBORValue.negative(UInt64(Int64.max)).int64 == Int64.min && CBORValue.negative(.max).int64 == nil)
    }

    @Test(arguments: [
        ("", CBORError.truncated(offset: 0)),
        ("18", .truncated(offset: 0)),                       // argument byte missing
        ("1b00000000", .truncated(offset: 0)),               // 8-byte argument cut short
        ("4401", .truncated(offset: 0)),                     // byte string claims 4, has 1
        ("5affffffff00", .truncated(offset: 0)),             // byte string claims 4 GiB
        ("9bffffffffffffffff00", .truncated(offset: 0)),     // array claims 2^64 - 1 items
        ("bbffffffffffffffff00", .truncated(offset: 0)),     // map claims 2^64 - 1 pairs
        ("810102", .trailingBytes(offset: 2)),
        ("0000", .trailingBytes(offset: 1)),
        ("5f4101ff", .unsupportedLength(offset: 0)),         // indefinite byte string
        ("7f6161ff", .unsupportedLength(offset: 0)),         // indefinite text
        ("9f01ff", .unsupportedLength(offset: 0)),           // indefinite array
        ("bf0102ff", .unsupportedLength(offset: 0)),         // indefinite map
        ("1c", .unsupportedLength(offset: 0)),               // reserved additional information
        ("ff", .unsupportedLength(offset: 0)),               // a lone break
        ("c11a514b67b0", .unsupportedItem(offset: 0)),       // tag
        ("f93c00", .unsupportedItem(offset: 0)),             // half float
        ("fb3ff199999999999a", .unsupportedItem(offset: 0)), // double
        ("f7", .unsupportedItem(offset: 0)),                 // undefined
        ("f0", .unsupportedItem(offset: 0)),                 // unassigned simple value
        ("62c328", .invalidUTF8(offset: 0)),
        ("a2010201ff", .duplicateKey(offset: 3)),
    ])
    func refusesMalformedInput(hex: String, expected: CBORError) {
        #expect(throws: expected) { try CBORDecoder().decode(Self.bytes(hex)) }
    }

    @Test func nestingBeyondTheLimitIsRefused() throws {
        let nine = [UInt8](repeating: 0x81, count: 9) + [0x00]
        #expect(throws: CBORError.tooDeep(offset: 8)) { try CBORDecoder(maximumDepth: 8).decode(nine) }
        #expect(try CBORDecoder(maximumDepth: 9).decode(nine) != .null)
        let deepMaps = [UInt8](repeating: 0xa1, count: 1) + [0x01] + [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(throws: CBORError.tooDeep(offset: 9)) { try CBORDecoder().decode(deepMaps) }
    }

    @Test func aPrefixLeavesWhatFollowsToTheCaller() throws {
        let (value, end) = try CBORDecoder().decodePrefix(Self.bytes("ff a10102 0405"), from: 1)
        #expect(value[int: 1] == .unsigned(2) && end == 4)
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var random = SystemRandomNumberGenerator()
        var refused = 0
        for length in 0..<2000 {
            let input = (0..<(length % 40)).map { _ in UInt8.random(in: 0...255, using: &random) }
            do { _ = try CBORDecoder().decode(input) } catch { refused += 1 }
        }
        #expect(refused > 1000)
    }
}
