import CareSyncCore
import Crypto
import _CryptoExtras
import Foundation

/// A software authenticator for tests: makes registration and assertion responses the way a browser and a CTAP2
/// authenticator would, signed with a swift-crypto key, and each field can be bent to test one refusal.
struct SoftAuthenticator {
    enum Key {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    /// What one response carries; defaults are the honest values.
    struct Tweaks: Sendable {
        var type: String?
        var origin = SoftAuthenticator.origin
        var rpID = SoftAuthenticator.rpID
        var flags: UInt8?
        var crossOrigin = false
        var format = "none"
        var statement: CBORValue = .map([])
        var signCount: UInt32?
        var userHandle: [UInt8]??

        /// The honest values with `change` applied.
        static func with(_ change: (inout Tweaks) -> Void) -> Tweaks {
            var tweaks = Tweaks()
            change(&tweaks)
            return tweaks
        }
    }

    static let rpID = "localhost"
    static let origin = "http://localhost:8080"
    static let relyingParty = PasskeyRelyingParty(id: rpID, name: "CareSync", origins: [origin, "https://care.clinic.example"])

    let key: Key
    let credentialID: [UInt8]
    /// The counter the next response carries (incremented before each use, as authenticators do).
    var signCount: UInt32 = 0
    /// The user handle it stored at registration.
    var userHandle: [UInt8] = []

    static func es256() -> SoftAuthenticator {
        SoftAuthenticator(key: .p256(P256.Signing.PrivateKey()), credentialID: PasskeyChallenges.systemRandom(16))
    }

    static func rs256() throws -> SoftAuthenticator {
        SoftAuthenticator(key: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)), credentialID: PasskeyChallenges.systemRandom(20))
    }

    /// The COSE_Key of the public key.
    var coseKey: [UInt8] {
        switch key {
        case .p256(let k):
            let raw = Array(k.publicKey.x963Representation)
            return TestCBOREncoder.encode(TestCBOREncoder.map([(.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)),
                                                               (.integer(-2), .bytes(Array(raw[1...32]))), (.integer(-3), .bytes(Array(raw[33...64])))]))
        case .rsa(let k):
            let (n, e) = Self.rsaComponents(k.publicKey.pkcs1DERRepresentation)
            return TestCBOREncoder.encode(TestCBOREncoder.map([(.integer(1), .integer(3)), (.integer(3), .integer(-257)),
                                                               (.integer(-1), .bytes(n)), (.integer(-2), .bytes(e))]))
        }
    }

    /// Answers creation `options` (as the browser would after `create()`).
    mutating func register(_ options: PasskeyCreationOptions, _ tweaks: Tweaks = Tweaks()) throws -> PasskeyRegistrationResponse {
        let json = try JSONSerialization.jsonObject(with: Data(options.json.utf8)) as! [String: Any]
        userHandle = Base64URL.decode((json["user"] as! [String: Any])["id"] as! String)!
        signCount += 1
        let clientData = Self.clientData(tweaks.type ?? "webauthn.create", options.challenge, tweaks)
        let attested = [UInt8](repeating: 7, count: 16) + TestCBOREncoder.bigEndian(UInt64(credentialID.count), 2) + credentialID + coseKey
        let authData = Self.authData(tweaks, flags: 0x45, signCount: tweaks.signCount ?? signCount) + attested
        let object = TestCBOREncoder.encode(TestCBOREncoder.map([(.text("fmt"), .text(tweaks.format)), (.text("attStmt"), tweaks.statement),
                                                                 (.text("authData"), .bytes(authData))]))
        return PasskeyRegistrationResponse(credentialID: credentialID, clientDataJSON: clientData, attestationObject: object)
    }

    /// Answers request `options` (as the browser would after `get()`).
    mutating func assert(_ options: PasskeyRequestOptions, _ tweaks: Tweaks = Tweaks()) throws -> PasskeyAssertionResponse {
        try assert(challenge: options.challenge, tweaks)
    }

    /// Signs an assertion over `challenge`.
    mutating func assert(challenge: [UInt8], _ tweaks: Tweaks = Tweaks()) throws -> PasskeyAssertionResponse {
        signCount += 1
        let clientData = Self.clientData(tweaks.type ?? "webauthn.get", challenge, tweaks)
        let authData = Self.authData(tweaks, flags: 0x05, signCount: tweaks.signCount ?? signCount)
        let signed = authData + Array(SHA256.hash(data: clientData))
        let signature: [UInt8] = switch key {
        case .p256(let k): Array(try k.signature(for: signed).derRepresentation)
        case .rsa(let k): Array(try k.signature(for: signed, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        return PasskeyAssertionResponse(credentialID: credentialID, clientDataJSON: clientData, authenticatorData: authData,
                                        signature: signature, userHandle: tweaks.userHandle ?? userHandle)
    }

    static func clientData(_ type: String, _ challenge: [UInt8], _ tweaks: Tweaks) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(tweaks.origin)","crossOrigin":\#(tweaks.crossOrigin)}"#.utf8)
    }

    static func authData(_ tweaks: Tweaks, flags: UInt8, signCount: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Array(tweaks.rpID.utf8))) + [tweaks.flags ?? flags] + TestCBOREncoder.bigEndian(UInt64(signCount), 4)
    }

    /// n and e of a PKCS#1 RSAPublicKey DER (SEQUENCE { INTEGER n, INTEGER e }), leading zero bytes dropped.
    static func rsaComponents(_ der: Data) -> ([UInt8], [UInt8]) {
        let bytes = Array(der)
        var offset = 0
        func length() -> Int {
            let first = Int(bytes[offset]); offset += 1
            guard first & 0x80 != 0 else { return first }
            var value = 0
            for _ in 0..<(first & 0x7f) { value = value << 8 | Int(bytes[offset]); offset += 1 }
            return value
        }
        func integer() -> [UInt8] {
            offset += 1
            let count = length()
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)].drop(while: { $0 == 0 }))
        }
        offset += 1; _ = length()
        let n = integer(), e = integer()
        return (n, e)
    }
}
