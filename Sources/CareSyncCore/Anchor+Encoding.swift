import Foundation

/// The opaque client form of an anchor: URL-safe base64 of a versioned, checksummed record.
///
/// Layout (version 1): `[1][sequence: 8 bytes big-endian][horizon: 8][storeID length: 1][storeID UTF-8][FNV-1a 32: 4 bytes]`,
/// base64url without padding. Decoding is strict: any other alphabet, padding, length, version,
/// checksum, a negative sequence or horizon, a non-canonical encoding or another store's id is `SyncError.invalidAnchor`.
///
///     let text = Anchor(storeID: "S", sequence: 42).encoded
///     try Anchor(encoded: text, expectedStoreID: "S")   // sequence 42
///     try Anchor(encoded: text, expectedStoreID: "T")   // throws .invalidAnchor
extension Anchor {
    /// The format version written by `encoded`.
    public static let formatVersion: UInt8 = 1
    /// The longest store id an anchor can carry, in UTF-8 bytes.
    public static let maxStoreIDBytes = 255

    /// The opaque, URL-safe string clients hold.
    public var encoded: String {
        let id = Array(storeID.utf8)
        precondition(id.count <= Self.maxStoreIDBytes, "store id too long for an anchor")
        var bytes: [UInt8] = [Self.formatVersion]
        for value in [sequence, horizon] {
            let bits = UInt64(bitPattern: value)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
        bytes.append(UInt8(id.count))
        bytes.append(contentsOf: id)
        let sum = Self.checksum(bytes)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: sum >> UInt32(shift))) }
        return Self.base64URL(bytes)
    }

    /// Base64url of `bytes` without padding (RFC 4648 §5), written directly: it is on every write's answer.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            for shift in [18, 12, 6].prefix(rest + 1) { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a client's anchor for the store `expectedStoreID`; throws `SyncError.invalidAnchor`.
    public init(encoded text: String, expectedStoreID: String) throws {
        guard let anchor = Self.decode(text), anchor.storeID == expectedStoreID else { throw SyncError.invalidAnchor }
        self = anchor
    }

    /// Decodes any well-formed anchor, whatever its store; nil when malformed.
    public static func decode(_ text: String) -> Anchor? {
        guard !text.isEmpty, text.utf8.count <= 400, text.utf8.count % 4 != 1,
              text.utf8.allSatisfy({ isBase64URL($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        let header = 18
        guard bytes.count >= header + 4, bytes[0] == formatVersion else { return nil }
        let idCount = Int(bytes[header - 1])
        guard bytes.count == header + idCount + 4 else { return nil }
        let body = Array(bytes[0..<(header + idCount)])
        var sum: UInt32 = 0
        for byte in bytes[(header + idCount)...] { sum = sum << 8 | UInt32(byte) }
        guard sum == checksum(body) else { return nil }
        func int64(at offset: Int) -> Int64 {
            var bits: UInt64 = 0
            for byte in bytes[offset..<(offset + 8)] { bits = bits << 8 | UInt64(byte) }
            return Int64(bitPattern: bits)
        }
        guard let id = String(bytes: bytes[header..<(header + idCount)], encoding: .utf8) else { return nil }
        let anchor = Anchor(storeID: id, sequence: int64(at: 1), horizon: int64(at: 9))
        guard anchor.sequence >= 0, anchor.horizon >= 0, anchor.encoded == text else { return nil }
        return anchor
    }

    private static func isBase64URL(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
    }

    /// FNV-1a, 32 bits: catches typos and truncation, not forgery (the store id and bounds checks do the rest).
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
