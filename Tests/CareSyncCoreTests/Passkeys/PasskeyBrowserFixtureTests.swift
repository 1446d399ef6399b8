import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing

/// Registrations and sign-ins recorded from headless Chromium's virtual authenticator (scripts/passkey-fixtures.sh),
/// replayed byte for byte through the ceremonies: the challenges the browser signed are fed back as the "random" ones.
struct PasskeyBrowserFixtureTests {
    struct Fixture: Decodable {
        struct Step: Decodable { let challenge: String; let response: AnyJSON }
        let origin: String
        let rpId: String
        let algorithm: Int64
        let userHandle: String
        let registration: Step
        let signIns: [Step]
    }

    /// Any JSON value, re-encoded as the bytes an endpoint would receive.
    struct AnyJSON: Decodable {
        let bytes: [UInt8]
        init(from decoder: Decoder) throws {
            let object = try decoder.singleValueContainer().decode([String: JSONValue].self)
            bytes = Array(try JSONEncoder().encode(object))
        }
    }

    indirect enum JSONValue: Codable {
        case string(String), number(Double), bool(Bool), object([String: JSONValue]), array([JSONValue]), null
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) } else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([JSONValue].self) { self = .array(a) } else { self = .object(try c.decode([String: JSONValue].self)) }
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .string(let s): try c.encode(s)
            case .number(let n): try c.encode(n)
            case .bool(let b): try c.encode(b)
            case .object(let o): try c.encode(o)
            case .array(let a): try c.encode(a)
            case .null: try c.encodeNil()
            }
        }
    }

    static func load(_ name: String) throws -> Fixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/chromium-\(name).json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    /// A rig whose "random" bytes are, in order, the recorded user handle and challenges.
    static func rig(_ f: Fixture) -> PasskeyTestRig {
        let queue = Shared(([f.userHandle, f.registration.challenge] + f.signIns.map(\.challenge)).map { Base64URL.decode($0)! })
        return PasskeyTestRig(relyingParty: PasskeyRelyingParty(id: f.rpId, name: "CareSync", origins: [f.origin]),
                              random: { _ in queue.update { $0.removeFirst() } })
    }

    @Test(arguments: ["es256", "rs256"])
    func chromiumRegistersAndSignsInTwice(algorithm: String) throws {
        let f = try Self.load(algorithm)
        let rig = Self.rig(f)
        let options = try rig.ceremonies.beginRegistration(personID: "theo", userName: "theo@clinic.example", displayName: "Theo")
        #expect(Base64URL.encode(options.challenge) == f.registration.challenge)
        let registered = try rig.ceremonies.finishRegistration(try PasskeyRegistrationResponse(json: f.registration.response.bytes),
                                                               personID: "theo", name: "Chromium")
        #expect(registered.algorithm == f.algorithm && registered.signCount == 1 && registered.userHandle == Base64URL.decode(f.userHandle))
        #expect(registered.aaguid == [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8] && !registered.backupEligible)
        for (i, signIn) in f.signIns.enumerated() {
            _ = try rig.ceremonies.beginSignIn()
            let credential = try rig.ceremonies.finishSignIn(try PasskeyAssertionResponse(json: signIn.response.bytes))
            #expect(credential.personID == "theo" && credential.signCount == UInt32(i + 2))
        }
    }

    @Test(arguments: ["es256", "rs256"])
    func aRecordedSignInReplayedLaterIsAPossibleClone(algorithm: String) throws {
        let f = try Self.load(algorithm)
        let queue = Shared(([f.userHandle, f.registration.challenge] + f.signIns.map(\.challenge) + [f.signIns[0].challenge])
            .map { Base64URL.decode($0)! })
        let rig = PasskeyTestRig(relyingParty: PasskeyRelyingParty(id: f.rpId, name: "CareSync", origins: [f.origin]),
                                 random: { _ in queue.update { $0.removeFirst() } })
        _ = try rig.ceremonies.beginRegistration(personID: "theo", userName: "theo", displayName: "Theo")
        _ = try rig.ceremonies.finishRegistration(try PasskeyRegistrationResponse(json: f.registration.response.bytes), personID: "theo", name: "c")
        for signIn in f.signIns {
            _ = try rig.ceremonies.beginSignIn()
            _ = try rig.ceremonies.finishSignIn(try PasskeyAssertionResponse(json: signIn.response.bytes))
        }
        _ = try rig.ceremonies.beginSignIn()   // the server happens to issue sign-in 1's challenge again: its counter, 2, is behind 3
        #expect(throws: PasskeyError.signCountNotIncreased(stored: 3, received: 2)) {
            try rig.ceremonies.finishSignIn(try PasskeyAssertionResponse(json: f.signIns[0].response.bytes))
        }
    }

    @Test(arguments: ["es256", "rs256"])
    func aRecordedSignatureWithOneBitFlippedIsRefused(algorithm: String) throws {
        let f = try Self.load(algorithm)
        let rig = Self.rig(f)
        _ = try rig.ceremonies.beginRegistration(personID: "theo", userName: "theo", displayName: "Theo")
        _ = try rig.ceremonies.finishRegistration(try PasskeyRegistrationResponse(json: f.registration.response.bytes), personID: "theo", name: "c")
        _ = try rig.ceremonies.beginSignIn()
        let honest = try PasskeyAssertionResponse(json: f.signIns[0].response.bytes)
        var signature = honest.signature
        signature[signature.count / 2] ^= 0x04
        let tampered = PasskeyAssertionResponse(credentialID: honest.credentialID, clientDataJSON: honest.clientDataJSON,
                                                authenticatorData: honest.authenticatorData, signature: signature, userHandle: honest.userHandle)
        #expect(throws: PasskeyError.badSignature) { try rig.ceremonies.finishSignIn(tampered) }
    }

    @Test func theRecordedRegistrationFromAnotherOriginOrRPIsRefused() throws {
        let f = try Self.load("es256")
        let response = try PasskeyRegistrationResponse(json: f.registration.response.bytes)
        let challenge = Base64URL.decode(f.registration.challenge)!
        let otherOrigin = PasskeyVerifier(relyingParty: PasskeyRelyingParty(id: f.rpId, name: "C", origins: ["https://care.clinic.example"]))
        #expect(throws: PasskeyError.originNotAllowed(f.origin)) { try otherOrigin.verifyRegistration(response, challenge: challenge) }
        let otherRP = PasskeyVerifier(relyingParty: PasskeyRelyingParty(id: "clinic.example", name: "C", origins: [f.origin]))
        #expect(throws: PasskeyError.relyingPartyMismatch) { try otherRP.verifyRegistration(response, challenge: challenge) }
        let right = PasskeyVerifier(relyingParty: PasskeyRelyingParty(id: f.rpId, name: "C", origins: [f.origin]))
        #expect(throws: PasskeyError.unknownChallenge) { try right.verifyRegistration(response, challenge: PasskeyChallenges.systemRandom(32)) }
        #expect(try right.verifyRegistration(response, challenge: challenge).credentialID == response.credentialID)
    }
}
