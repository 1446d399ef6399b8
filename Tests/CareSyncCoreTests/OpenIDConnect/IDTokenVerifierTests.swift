import CareSyncCore
import Crypto
import Foundation
import Testing

/// OpenID Connect Core 1.0 §3.1.3.7, one test per refusal, with ES256 and RS256 keys made in the test.
@Suite struct IDTokenVerifierTests {
    static let issuer = "https://login.clinic.example/tenant"
    static let clientID = "caresync"
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let verifier = IDTokenVerifier(issuer: issuer, clientID: clientID, allowedSkew: 60)

    func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var c: [String: Any] = ["iss": Self.issuer, "sub": "subject-1", "aud": Self.clientID, "nonce": "nonce-1",
                                "iat": now.timeIntervalSince1970 - 5, "exp": now.timeIntervalSince1970 + 300]
        for (key, value) in changes { c[key] = value }
        return c
    }

    func verify(_ token: String, with issuers: [TestIssuer], nonce: String = "nonce-1") throws(IDTokenError) -> IDTokenClaims {
        try verifier.verify(token, keys: try JSONWebKeySet(json: TestIssuer.jwks(issuers)), nonce: nonce, now: now)
    }

    @Test(arguments: [TestIssuer.es256(), TestIssuer.rs256()])
    func aGoodTokenOfEitherAlgorithmVerifies(issuer: TestIssuer) throws {
        let verified = try verify(issuer.sign(claims(["name": "Theo"])), with: [issuer])
        #expect(verified.issuer == Self.issuer)
        #expect(verified.subject == "subject-1")
        #expect(verified.name == "Theo")
    }

    @Test(arguments: [(TestIssuer.es256(kid: "k"), TestIssuer.es256(kid: "k")),
                      (TestIssuer.rs256(kid: "k"), TestIssuer.rs256(kid: "k", key: TestIssuer.otherRSAKey))])
    func aTokenSignedByAnotherKeyWithTheSameKidIsRefused(signer: TestIssuer, published: TestIssuer) {
        #expect(throws: IDTokenError.badSignature) { try verify(signer.sign(claims()), with: [published]) }
    }

    @Test func aTamperedPayloadIsRefused() {
        let issuer = TestIssuer.es256()
        let parts = issuer.sign(claims()).split(separator: ".")
        let forged = parts[0] + "." + TestIssuer.part(claims(["sub": "admin"])) + "." + parts[2]
        #expect(throws: IDTokenError.badSignature) { try verify(String(forged), with: [issuer]) }
    }

    @Test func anUnknownKidIsReportedSoTheSetCanBeFetchedAgain() throws {
        let old = TestIssuer.es256(kid: "2025"), rotated = TestIssuer.rs256(kid: "2026")
        let token = rotated.sign(claims())
        #expect(throws: IDTokenError.unknownKey("2026")) { try verify(token, with: [old]) }
        #expect(try verify(token, with: [old, rotated]).subject == "subject-1")
    }

    @Test func aKidOfTheOtherAlgorithmIsNotUsed() {
        let ec = TestIssuer.es256(kid: "same"), rsa = TestIssuer.rs256(kid: "same")
        #expect(throws: IDTokenError.unknownKey("same")) { try verify(rsa.sign(claims()), with: [ec]) }
    }

    @Test func expiryAllowsTheSkewAndNoMore() throws {
        let issuer = TestIssuer.es256()
        #expect(try verify(issuer.sign(claims(["exp": now.timeIntervalSince1970 - 59])), with: [issuer]).subject == "subject-1")
        #expect(throws: IDTokenError.expired) { try verify(issuer.sign(claims(["exp": now.timeIntervalSince1970 - 60])), with: [issuer]) }
        #expect(throws: IDTokenError.expired) { try verify(issuer.sign(claims(["exp": nil])), with: [issuer]) }
        #expect(throws: IDTokenError.expired) { try verify(issuer.sign(claims(["exp": "soon"])), with: [issuer]) }
    }

    @Test func issuedAtInTheFutureBeyondTheSkewIsRefused() throws {
        let issuer = TestIssuer.es256()
        #expect(try verify(issuer.sign(claims(["iat": now.timeIntervalSince1970 + 60])), with: [issuer]).subject == "subject-1")
        #expect(throws: IDTokenError.issuedInFuture) { try verify(issuer.sign(claims(["iat": now.timeIntervalSince1970 + 61])), with: [issuer]) }
        #expect(throws: IDTokenError.issuedInFuture) { try verify(issuer.sign(claims(["iat": nil])), with: [issuer]) }
    }

    @Test func theAudienceMustBeThisClient() throws {
        let issuer = TestIssuer.es256()
        #expect(throws: IDTokenError.wrongAudience) { try verify(issuer.sign(claims(["aud": "another-app"])), with: [issuer]) }
        #expect(throws: IDTokenError.wrongAudience) { try verify(issuer.sign(claims(["aud": nil])), with: [issuer]) }
        #expect(throws: IDTokenError.wrongAudience) { try verify(issuer.sign(claims(["aud": [Self.clientID, "other"]])), with: [issuer]) }
        #expect(throws: IDTokenError.wrongAudience) {
            try verify(issuer.sign(claims(["aud": [Self.clientID, "other"], "azp": "other"])), with: [issuer])
        }
        #expect(throws: IDTokenError.wrongAudience) { try verify(issuer.sign(claims(["azp": "other"])), with: [issuer]) }
        #expect(try verify(issuer.sign(claims(["aud": [Self.clientID, "other"], "azp": Self.clientID])), with: [issuer]).subject == "subject-1")
        #expect(try verify(issuer.sign(claims(["aud": [Self.clientID]])), with: [issuer]).subject == "subject-1")
    }

    @Test(arguments: ["https://evil.example/tenant", issuer + "/", "HTTPS://login.clinic.example/tenant"])
    func theIssuerMustMatchExactly(wrong: String) {
        let issuer = TestIssuer.es256()
        #expect(throws: IDTokenError.wrongIssuer) { try verify(issuer.sign(claims(["iss": wrong])), with: [issuer]) }
    }

    @Test func theNonceMustBeThisSignInsOwn() throws {
        let issuer = TestIssuer.es256()
        #expect(throws: IDTokenError.wrongNonce) { try verify(issuer.sign(claims()), with: [issuer], nonce: "nonce-2") }
        #expect(throws: IDTokenError.wrongNonce) { try verify(issuer.sign(claims(["nonce": nil])), with: [issuer]) }
    }

    @Test func aSubjectIsRequired() {
        let issuer = TestIssuer.es256()
        #expect(throws: IDTokenError.missingSubject) { try verify(issuer.sign(claims(["sub": ""])), with: [issuer]) }
        #expect(throws: IDTokenError.missingSubject) { try verify(issuer.sign(claims(["sub": nil])), with: [issuer]) }
    }

    @Test func algNoneIsRefused() {
        let issuer = TestIssuer.es256()
        let unsigned = TestIssuer.part(["alg": "none", "kid": issuer.kid]) + "." + TestIssuer.part(claims()) + "."
        #expect(throws: IDTokenError.unsupportedAlgorithm("none")) { try verify(unsigned, with: [issuer]) }
    }

    /// The algorithm confusion: an HMAC keyed with the provider's public key, which anyone can compute.
    @Test func hs256KeyedWithThePublicKeyIsRefused() {
        let issuer = TestIssuer.rs256()
        let input = TestIssuer.part(["alg": "HS256", "kid": issuer.kid]) + "." + TestIssuer.part(claims())
        let publicKey = Array((try? JSONSerialization.data(withJSONObject: issuer.jwk)) ?? Data())
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: publicKey))
        #expect(throws: IDTokenError.unsupportedAlgorithm("HS256")) { try verify(input + "." + Base64URL.encode(Array(mac)), with: [issuer]) }
    }

    @Test func aCriticalHeaderIsRefused() {
        let issuer = TestIssuer.es256()
        #expect(throws: IDTokenError.unsupportedAlgorithm("ES256")) { try verify(issuer.sign(claims(), header: ["crit": ["exp"]]), with: [issuer]) }
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!.e30.", TestIssuer.part(["alg": "ES256"]) + ".bm90LWpzb24."])
    func malformedTokensAreRefused(token: String) {
        #expect(throws: IDTokenError.self) { try verify(token, with: [TestIssuer.es256()]) }
    }

    @Test func aKeySetWithoutUsableKeysIsRefused() {
        #expect(throws: IDTokenError.self) { try JSONWebKeySet(json: Array(#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#.utf8)) }
        #expect(throws: IDTokenError.self) { try JSONWebKeySet(json: Array(#"{"keys":[{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}]}"#.utf8)) }
        #expect(throws: IDTokenError.self) { try JSONWebKeySet(json: Array("[]".utf8)) }
    }

    @Test func encryptionKeysAreLeftOut() throws {
        var enc = TestIssuer.es256(kid: "enc").jwk
        enc["use"] = "enc"
        let sig = TestIssuer.es256(kid: "sig")
        let set = try JSONWebKeySet(json: Array(try JSONSerialization.data(withJSONObject: ["keys": [enc, sig.jwk]])))
        #expect(set.kids == ["sig"])
    }

    /// RFC 7636 Appendix B; the verifier derived from the binding cookie is 43 characters of its alphabet, one per
    /// binding and state.
    @Test func pkceS256MatchesTheRFCExample() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let verifier = PKCE.verifier(binding: "binding-1", state: "state-1")
        #expect(verifier.count == 43 && verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(verifier == PKCE.verifier(binding: "binding-1", state: "state-1"))
        #expect(verifier != PKCE.verifier(binding: "binding-2", state: "state-1"))
        #expect(verifier != PKCE.verifier(binding: "binding-1", state: "state-2"))
    }
}
