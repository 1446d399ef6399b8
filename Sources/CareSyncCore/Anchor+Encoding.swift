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

    /// Base64url of `bytes` without padding (RFC 4648 §5).
    public static func base64URL(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }

    /// Decodes a client's anchor for the store `expectedStoreID`; throws `SyncError.invalidAnchor`.
    public init(encoded text: String, expectedStoreID: String) throws {
        guard let anchor = Self.decode(text), anchor.storeID == expectedStoreID else { throw SyncError.invalidAnchor }
        self = anchor
    }

    /// Decodes any well-formed anchor, whatever its store; nil when malformed.
    public static func decode(_ text: String) -> Anchor? {
        guard !text.isEmpty, text.utf8.count <= 400, Base64URL.isAlphabet(text),
              let bytes = Base64URL.decode(text) else { return nil }
        let header = 18
        guard bytes.count >= header + 4, bytes[0] == formatVersion else { return nil }
        let idCount = Int(bytes[header - 1])
        guard bytes.count == header + idCount + 4 else { return nil }
        let body = bytes[0..<(header + idCount)]
        var sum: UInt32 = 0
        for byte in bytes[(header + idCount)...] { sum = sum << 8 | UInt32(byte) }
        guard sum == checksum(body) else { return nil }
        func int64(at offset: Int) -> Int64 {
            var bits: UInt64 = 0
            for byte in bytes[offset..<(offset + 8)] { bits = bits << 8 | UInt64(byte) }
            return Int64(bitPattern: bits)
        }
        guard let id = String(validating: bytes[header..<(header + idCount)], as: UTF8.self) else { return nil }
        let anchor = Anchor(storeID: id, sequence: int64(at: 1), horizon: int64(at: 9))
        // Canonical without encoding it again: the alphabet check and the strict base64url decode give each byte
        // string one text, the exact length and the checksum one byte string per anchor, and the id's bytes are kept.
        guard anchor.sequence >= 0, anchor.horizon >= 0 else { return nil }
        return anchor
    }

    /// FNV-1a, 32 bits: catches typos and truncation, not forgery (the store id and bounds checks do the rest).
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
