import CareSyncCore
import Crypto
import Foundation
@testable import CareSyncServer

/// A passkey authenticator and browser in one, for the endpoint tests: answers the server's options JSON with the
/// `{"credential": cred.toJSON()}` body a browser would send, ES256-signed, and each field can be bent for one refusal.
struct TestAuthenticator {
    /// What one response carries; nil members are the honest values.
    struct Bend {
        var origin: String?
        var rpID: String?
        var flags: UInt8?
        var signCount: UInt32?
        var challenge: [UInt8]?
        var flipSignatureBit = false
    }

    let key = P256.Signing.PrivateKey()
    let credentialID = PasskeyChallenges.systemRandom(16)
    /// The origin the browser page was at.
    var origin: String
    var rpID = "localhost"
    /// The counter of the next response (incremented before each use).
    var signCount: UInt32 = 0
    /// The user handle stored at registration.
    var userHandle: [UInt8] = []

    /// The credential id as the API names it.
    var id: String { Base64URL.encode(credentialID) }

    /// The finish-registration body answering creation `options`.
    mutating func register(_ options: JSONValue, name: String? = nil, bend: Bend = Bend()) -> JSONValue {
        userHandle = Base64URL.decode(options["user"]?["id"]?.stringValue ?? "") ?? []
        signCount += 1
        let clientData = clientDataJSON("webauthn.create", options, bend)
        let point = Array(key.publicKey.x963Representation)
        let cose = CBOR.map([(CBOR.int(1), CBOR.int(2)), (CBOR.int(3), CBOR.int(-7)), (CBOR.int(-1), CBOR.int(1)),
                             (CBOR.int(-2), CBOR.bytes(Array(point[1...32]))), (CBOR.int(-3), CBOR.bytes(Array(point[33...64])))])
        let authData = authenticatorData(bend, flags: 0x45) + [UInt8](repeating: 0, count: 16)
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + cose
        let attestation = CBOR.map([(CBOR.text("fmt"), CBOR.text("none")), (CBOR.text("attStmt"), CBOR.map([])),
                                    (CBOR.text("authData"), CBOR.bytes(authData))])
        var body: [String: JSONValue] = ["credential": credential(["clientDataJSON": .string(Base64URL.encode(clientData)),
                                                                   "attestationObject": .string(Base64URL.encode(attestation))])]
        if let name { body["name"] = .string(name) }
        return .object(body)
    }

    /// The finish-sign-in body answering request `options`.
    mutating func assert(_ options: JSONValue, bend: Bend = Bend()) throws -> JSONValue {
        signCount += 1
        let clientData = clientDataJSON("webauthn.get", options, bend)
        let authData = authenticatorData(bend, flags: 0x05)
        var signature = Array(try key.signature(for: authData + Array(SHA256.hash(data: clientData))).derRepresentation)
        if bend.flipSignatureBit { signature[signature.count / 2] ^= 0x10 }
        return ["credential": credential(["clientDataJSON": .string(Base64URL.encode(clientData)),
                                          "authenticatorData": .string(Base64URL.encode(authData)),
                                          "signature": .string(Base64URL.encode(signature)),
                                          "userHandle": .string(Base64URL.encode(userHandle))])]
    }

    private func credential(_ response: [String: JSONValue]) -> JSONValue {
        ["id": .string(id), "rawId": .string(id), "type": "public-key", "response": .object(response)]
    }

    private func clientDataJSON(_ type: String, _ options: JSONValue, _ bend: Bend) -> [UInt8] {
        let challenge = bend.challenge.map(Base64URL.encode) ?? options["challenge"]?.stringValue ?? ""
        return Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(bend.origin ?? origin)","crossOrigin":false}"#.utf8)
    }

    private func authenticatorData(_ bend: Bend, flags: UInt8) -> [UInt8] {
        let count = bend.signCount ?? signCount
        return Array(SHA256.hash(data: Array((bend.rpID ?? rpID).utf8))) + [bend.flags ?? flags]
            + [UInt8(count >> 24), UInt8((count >> 16) & 0xff), UInt8((count >> 8) & 0xff), UInt8(count & 0xff)]
    }
}

/// The few CBOR items WebAuthn's attestation object and COSE keys use (RFC 8949: small maps, ints, bytes, text).
enum CBOR {
    static func head(_ major: UInt8, _ length: Int) -> [UInt8] {
        switch length {
        case ..<24: [major << 5 | UInt8(length)]
        case ..<256: [major << 5 | 24, UInt8(length)]
        default: [major << 5 | 25, UInt8(length >> 8), UInt8(length & 0xff)]
        }
    }
    static func int(_ value: Int) -> [UInt8] { value >= 0 ? head(0, value) : head(1, -1 - value) }
    static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
    static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
    static func map(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] { head(5, pairs.count) + pairs.flatMap { $0.0 + $0.1 } }
}
