import CareSyncHTTP
import CareSyncCore
import Crypto
import Foundation
import CareSyncLocking

/// The opaque anchor strings of responses and `anchor=` parameters: Core's `Anchor.encoded`, sealed.
///
/// An anchor carries the database-wide change sequence, which counts every patient's writes and every type's.
/// Handed out in clear it would tell a caller about changes it may not see (another patient's writes moving an
/// empty page's anchor). So every anchor a response carries is sealed with AES-GCM under the database's anchor
/// key (`SyncStore.anchorKey`, shared by every instance), with a fresh nonce each time: the string reveals
/// nothing, two reads never share one (the long polls one commit woke may share one read and its answer,
/// `SharedPage`), and a forged or altered sealed anchor is 400 `invalidAnchor`. The key is
/// made once and the nonces are drawn in bulk from swift-crypto's generator; a sealed anchor once opened is
/// remembered (a device polls with the same one again and again), so its tag is checked once.
///
/// Layout: base64url without padding of `[2][nonce: 12][ciphertext of the version-1 text][tag: 16]`. Version-1
/// anchors handed out before sealing (`AQ…`) are still read, so no client has to start over after an upgrade.
public struct AnchorWire: Sendable {
    /// The first byte of a sealed anchor.
    static let sealedVersion: UInt8 = 2
    private let sealing: Sealing

    /// What sealing and opening share: the key (made once), nonces drawn in bulk, and the anchors opened lately.
    private final class Sealing: @unchecked Sendable {
        /// Immutable once made; swift-crypto's key type is not marked `Sendable`.
        let key: SymmetricKey
        let nonces = Locked(NoncePool())
        /// Sealed strings already opened (their tag checked), and what they hold: a device polls with the same
        /// anchor again and again. Emptied when full.
        let opened = Locked([String: Anchor]())
        static let openedCapacity = 4_096

        init(key: [UInt8]) { self.key = SymmetricKey(data: key) }
    }

    /// Random nonces from swift-crypto's generator, drawn 4,092 bytes at a time instead of one call each.
    private struct NoncePool {
        static let nonceSize = 12
        var bytes: [UInt8] = []
        var next = 0

        /// The next unused 12 bytes.
        mutating func take() -> ArraySlice<UInt8> {
            if next + Self.nonceSize > bytes.count {
                bytes = SymmetricKey(size: SymmetricKeySize(bitCount: 8 * 341 * Self.nonceSize)).withUnsafeBytes { Array($0) }
                next = 0
            }
            defer { next += Self.nonceSize }
            return bytes[next..<(next + Self.nonceSize)]
        }
    }

    /// Seals and opens anchors with `key` (32 bytes).
    public init(key: [UInt8]) {
        precondition(key.count == 32, "an anchor key has 32 bytes")
        sealing = Sealing(key: key)
    }

    /// Encodes an anchor for a response: sealed, different on every call.
    public func encode(_ anchor: Anchor) -> String {
        let nonce = try! AES.GCM.Nonce(data: sealing.nonces.withLock { $0.take() })  // 12 bytes: cannot fail
        let sealed = try! AES.GCM.seal(Array(anchor.encoded.utf8), using: sealing.key, nonce: nonce)  // only fails for a bad key or nonce size
        return Anchor.base64URL([Self.sealedVersion] + Array(sealed.combined!))
    }

    /// Decodes a client's anchor; a malformed, altered or forged one is 400 `invalidAnchor`. Whether its store id
    /// is acceptable is the store's call (a restored backup still honours its old id up to the backup).
    public func decode(_ text: String) throws(HTTPError) -> Anchor {
        if text.hasPrefix("AQ"), let legacy = Anchor.decode(text) { return legacy }
        if let known = sealing.opened.withLock({ $0[text] }) { return known }
        guard text.utf8.count <= 600, Base64URL.isAlphabet(text), let bytes = Base64URL.decode(text), bytes.first == Self.sealedVersion,
              let box = try? AES.GCM.SealedBox(combined: bytes.dropFirst()),
              let plain = try? AES.GCM.open(box, using: sealing.key),
              let anchor = Anchor.decode(String(decoding: plain, as: UTF8.self)) else { throw .invalidAnchor }
        sealing.opened.withLock { opened in
            if opened.count >= Sealing.openedCapacity { opened.removeAll(keepingCapacity: true) }
            opened[text] = anchor
        }
        return anchor
    }
}
