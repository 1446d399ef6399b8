import CareSyncHTTP
import CareSyncCore
import Crypto
import Foundation

/// The opaque anchor strings of responses and `anchor=` parameters: Core's `Anchor.encoded`, sealed.
///
/// An anchor carries the database-wide change sequence, which counts every patient's writes and every type's.
/// Handed out in clear it would tell a caller about changes it may not see (another patient's writes moving an
/// empty page's anchor). So every anchor a response carries is sealed with AES-GCM under the database's anchor
/// key (`SyncStore.anchorKey`, shared by every instance), with a fresh nonce each time: the string reveals
/// nothing, two answers never share one, and a forged or altered sealed anchor is 400 `invalidAnchor`.
///
/// Layout: base64url without padding of `[2][nonce: 12][ciphertext of the version-1 text][tag: 16]`. Version-1
/// anchors handed out before sealing (`AQ…`) are still read, so no client has to start over after an upgrade.
public struct AnchorWire: Sendable {
    /// The first byte of a sealed anchor.
    static let sealedVersion: UInt8 = 2
    private let keyBytes: [UInt8]
    /// The AES-256 key (made per call: swift-crypto's key type is not `Sendable`).
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// Seals and opens anchors with `key` (32 bytes).
    public init(key: [UInt8]) {
        precondition(key.count == 32, "an anchor key has 32 bytes")
        keyBytes = key
    }

    /// Encodes an anchor for a response: sealed, different on every call.
    public func encode(_ anchor: Anchor) -> String {
        let sealed = try! AES.GCM.seal(Array(anchor.encoded.utf8), using: key)  // only fails for a bad key or nonce size
        return Anchor.base64URL([Self.sealedVersion] + Array(sealed.combined!))
    }

    /// Decodes a client's anchor; a malformed, altered or forged one is 400 `invalidAnchor`. Whether its store id
    /// is acceptable is the store's call (a restored backup still honours its old id up to the backup).
    public func decode(_ text: String) throws(HTTPError) -> Anchor {
        if text.hasPrefix("AQ"), let legacy = Anchor.decode(text) { return legacy }
        guard text.utf8.count <= 600, Base64URL.isAlphabet(text), let bytes = Base64URL.decode(text), bytes.first == Self.sealedVersion,
              let box = try? AES.GCM.SealedBox(combined: bytes.dropFirst()),
              let plain = try? AES.GCM.open(box, using: key),
              let anchor = Anchor.decode(String(decoding: plain, as: UTF8.self)) else { throw .invalidAnchor }
        return anchor
    }
}
