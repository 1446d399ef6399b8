import Crypto
import _CryptoExtras
import Foundation

/// A credential public key from its COSE_Key encoding (RFC 9052 §7, RFC 9053): ES256 (EC2 on P-256, alg -7) or
/// RS256 (RSA PKCS#1 v1.5 with SHA-256, alg -257, modulus of 2048 bits or more). Anything else is refused. Not
/// `Sendable` (swift-crypto's keys are not): make one where it is used.
public struct COSEPublicKey {
    /// COSE algorithm identifiers CareSync accepts, in order of preference.
    public enum Algorithm: Int64, Sendable, CaseIterable {
        /// ECDSA with P-256 and SHA-256.
        case es256 = -7
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256 = -257
    }

    private enum Key {
        case p256(P256.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// The algorithm the key is for.
    public let algorithm: Algorithm
    private let key: Key

    /// Decodes and validates `cose` (the point must lie on the curve; the RSA modulus must be ≥ 2048 bits).
    public init(cose: [UInt8]) throws(PasskeyError) {
        let map: CBORValue
        do { map = try CBORDecoder().decode(cose) } catch { throw .malformed("the credential public key is not valid CBOR") }
        guard map.mapEntries != nil, let kty = map[int: 1]?.int64, let alg = map[int: 3]?.int64 else {
            throw .invalidPublicKey("a COSE key needs kty (1) and alg (3)")
        }
        guard let algorithm = Algorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        self.algorithm = algorithm
        switch algorithm {
        case .es256:
            guard kty == 2, map[int: -1]?.int64 == 1 else { throw .invalidPublicKey("ES256 needs an EC2 key (kty 2) on P-256 (crv 1)") }
            guard let x = map[int: -2]?.byteString, let y = map[int: -3]?.byteString, x.count == 32, y.count == 32 else {
                throw .invalidPublicKey("an EC2 P-256 key needs 32-byte x (-2) and y (-3)")
            }
            do { key = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)) } catch {
                throw .invalidPublicKey("the point is not on P-256")
            }
        case .rs256:
            guard kty == 3 else { throw .invalidPublicKey("RS256 needs an RSA key (kty 3)") }
            guard let n = map[int: -1]?.byteString, let e = map[int: -2]?.byteString, !n.isEmpty, !e.isEmpty else {
                throw .invalidPublicKey("an RSA key needs n (-1) and e (-2)")
            }
            let rsa: _RSA.Signing.PublicKey
            do { rsa = try _RSA.Signing.PublicKey(n: n, e: e) } catch { throw .invalidPublicKey("n and e are no RSA public key") }
            guard rsa.keySizeInBits >= 2048 else { throw .invalidPublicKey("the RSA modulus is shorter than 2048 bits") }
            key = .rsa(rsa)
        }
    }

    /// Whether `signature` (DER ECDSA for ES256, raw PKCS#1 v1.5 for RS256) signs `message` with this key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch key {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .rsa(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message,
                                        padding: .insecurePKCS1v1_5)
        }
    }
}
