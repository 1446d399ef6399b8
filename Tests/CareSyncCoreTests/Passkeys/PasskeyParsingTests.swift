import CareSyncCore
import Foundation
import Testing

/// The binary and JSON parts of a response, refused when malformed: authenticator data, attestation objects, COSE
/// keys, client data and the browser's JSON.
struct PasskeyParsingTests {
    static let rpHash = [UInt8](repeating: 0xaa, count: 32)

    @Test func authenticatorDataFlagsAndCounterAreRead() throws {
        let data = try AuthenticatorData(parsing: Self.rpHash + [0x1d, 0, 0, 1, 2])
        #expect(data.flags.userPresent && data.flags.userVerified && data.flags.backupEligible && data.flags.backedUp)
        #expect(!data.flags.attestedCredentialData && data.signCount == 258 && data.attestedCredential == nil)
    }

    @Test(arguments: [
        ([UInt8](repeating: 0, count: 36), "shorter than 37 bytes"),
        (rpHash + [0x05, 0, 0, 0, 1, 0], "bytes after"),
        (rpHash + [0x45, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 16), "truncated"),
        (rpHash + [0x45, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 16) + [0x01, 0x00, 1, 2], "credential id is truncated"),
        (rpHash + [0x45, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 16) + [0x00, 0x01, 9, 0x5f], "not valid CBOR"),
        (rpHash + [0x45, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 16) + [0x00, 0x01, 9, 0x01], "not a CBOR map"),
        (rpHash + [0x85, 0, 0, 0, 1], "extensions is not valid CBOR"),
    ])
    func malformedAuthenticatorDataIsRefused(bytes: [UInt8], reason: String) {
        #expect {
            try AuthenticatorData(parsing: bytes)
        } throws: { error in
            guard case .malformed(let text) = error as? PasskeyError else { return false }
            return text.contains(reason)
        }
    }

    @Test func extensionsAfterTheKeyAreSkipped() throws {
        let key = TestCBOREncoder.encode(TestCBOREncoder.map([(.integer(1), .integer(2))]))
        let ext = TestCBOREncoder.encode(TestCBOREncoder.map([(.text("credProtect"), .integer(2))]))
        let data = try AuthenticatorData(parsing: Self.rpHash + [0xc5, 0, 0, 0, 1] + [UInt8](repeating: 3, count: 16) + [0, 2, 7, 8] + key + ext)
        #expect(data.attestedCredential?.credentialID == [7, 8] && data.attestedCredential?.publicKeyCOSE == key)
    }

    @Test(arguments: [
        ([(CBORValue.integer(1), CBORValue.integer(2)), (.integer(3), .integer(-8))], PasskeyError.unsupportedAlgorithm(-8)),
        ([(.integer(1), .integer(1)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1))], .invalidPublicKey("ES256 needs an EC2 key (kty 2) on P-256 (crv 1)")),
        ([(.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)), (.integer(-2), .bytes([1])), (.integer(-3), .bytes([2]))],
         .invalidPublicKey("an EC2 P-256 key needs 32-byte x (-2) and y (-3)")),
        ([(.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)),
          (.integer(-2), .bytes([UInt8](repeating: 1, count: 32))), (.integer(-3), .bytes([UInt8](repeating: 1, count: 32)))],
         .invalidPublicKey("the point is not on P-256")),
        ([(.integer(1), .integer(3)), (.integer(3), .integer(-257)), (.integer(-1), .bytes([UInt8](repeating: 0xff, count: 128))), (.integer(-2), .bytes([1, 0, 1]))],
         .invalidPublicKey("the RSA modulus is shorter than 2048 bits")),
        ([(.integer(3), .integer(-7))], .invalidPublicKey("a COSE key needs kty (1) and alg (3)")),
    ])
    func unacceptableCOSEKeysAreRefused(pairs: [(CBORValue, CBORValue)], expected: PasskeyError) {
        #expect(throws: expected) { try COSEPublicKey(cose: TestCBOREncoder.encode(TestCBOREncoder.map(pairs))) }
    }

    @Test(arguments: [
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"x"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"x","crossOrigin":false,"extra":[1]}"#,
    ])
    func clientDataIsRead(json: String) throws {
        let data = try CollectedClientData(parsing: Array(json.utf8))
        #expect(data.type == "webauthn.get" && data.challenge == [0, 1, 2] && data.origin == "x" && !data.crossOrigin)
    }

    @Test(arguments: [#"{"type":"webauthn.get","origin":"x"}"#, #"{"type":"webauthn.get","challenge":"A+/=","origin":"x"}"#,
                      #"{"type":1,"challenge":"AAEC","origin":"x"}"#, #"[]"#, "", #"{"type":"webauthn.get","challenge":"AAEC","origin":"x","crossOrigin":"no"}"#])
    func malformedClientDataIsRefused(json: String) {
        #expect(throws: PasskeyError.self) { try CollectedClientData(parsing: Array(json.utf8)) }
    }

    @Test func theBrowsersJSONIsReadAndItsIDsMustAgree() throws {
        let good = #"{"id":"AQI","rawId":"AQI","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AQ","userHandle":null}}"#
        let response = try PasskeyAssertionResponse(json: Array(good.utf8))
        #expect(response.credentialID == [1, 2] && response.userHandle == nil && response.signature == [1])
        #expect(throws: PasskeyError.credentialIDMismatch) { try PasskeyAssertionResponse(json: Array(good.replacingOccurrences(of: #""id":"AQI""#, with: #""id":"AQM""#).utf8)) }
        #expect(throws: PasskeyError.malformed("type is not public-key")) { try PasskeyAssertionResponse(json: Array(good.replacingOccurrences(of: "public-key", with: "password").utf8)) }
        #expect(throws: PasskeyError.malformed("signature is not base64url")) { try PasskeyAssertionResponse(json: Array(good.replacingOccurrences(of: #""AQ","#, with: #""A$","#).utf8)) }
        #expect(throws: PasskeyError.self) { try PasskeyRegistrationResponse(json: Array(good.utf8)) }
    }

    @Test func anAttestationObjectNeedsItsThreeMembers() {
        let noAuthData = TestCBOREncoder.encode(TestCBOREncoder.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([]))]))
        #expect(throws: PasskeyError.malformed("attestationObject has no authData bytes")) { try AttestationObject(parsing: noAuthData) }
        #expect(throws: PasskeyError.self) { try AttestationObject(parsing: [0xa0, 0x00]) }
    }
}
