import Crypto

/// SHA-256 as lowercase hex: the migrations' checksum (swift-crypto's digest; a hand-written one showed up in a thread
/// dump of the test run, hashing every migration at each test server's start).
public enum SHA256Digest {
    /// The digest of `bytes` in lowercase hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 0x0f)]) }
        return String(decoding: text, as: UTF8.self)
    }
}
