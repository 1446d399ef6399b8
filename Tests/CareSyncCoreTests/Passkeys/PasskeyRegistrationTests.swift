import CareSyncCore
import CareSyncTestSupport
import Testing

/// WebAuthn §7.1 with a software authenticator: a registration is stored; each broken check is refused and stores nothing.
struct PasskeyRegistrationTests {
    @Test func anES256RegistrationIsStoredWithItsFlagsAndName() throws {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        let credential = try rig.register(&authenticator, name: "Theo's laptop")
        #expect(credential.credentialID == authenticator.credentialID && credential.personID == "person-1")
        #expect(credential.algorithm == -7 && credential.signCount == 1 && credential.aaguid == [UInt8](repeating: 7, count: 16))
        #expect(!credential.backupEligible && !credential.backedUp && credential.userHandle == authenticator.userHandle)
        #expect(try rig.ceremonies.passkeys(of: "person-1") == [credential])
    }

    @Test func anRS256RegistrationIsStored() throws {
        let rig = PasskeyTestRig()
        var authenticator = try SoftAuthenticator.rs256()
        #expect(try rig.register(&authenticator).algorithm == -257)
    }

    @Test func aPersonsSecondPasskeyKeepsTheUserHandleAndExcludesTheFirst() throws {
        let rig = PasskeyTestRig()
        var first = SoftAuthenticator.es256(), second = SoftAuthenticator.es256()
        let one = try rig.register(&first)
        rig.clock.advance(by: 1)
        let options = try rig.ceremonies.beginRegistration(personID: "person-1", userName: "theo", displayName: "Theo")
        #expect(options.json.contains(#""excludeCredentials":[{"id":"\#(Base64URL.encode(one.credentialID))","type":"public-key"}]"#))
        let two = try rig.ceremonies.finishRegistration(try second.register(options), personID: "person-1", name: "Phone")
        #expect(try rig.ceremonies.passkeys(of: "person-1").map(\.name) == ["Laptop", "Phone"] && two.userHandle == one.userHandle)
    }

    /// Each case breaks one thing a browser or authenticator sends.
    @Test(arguments: [
        ("wrong type", .with { $0.type = "webauthn.get" }, PasskeyError.wrongType("webauthn.get")),
        ("wrong origin", .with { $0.origin = "https://evil.example" }, .originNotAllowed("https://evil.example")),
        ("origin with a path", .with { $0.origin = "http://localhost:8080/" }, .originNotAllowed("http://localhost:8080/")),
        ("cross-origin frame", .with { $0.crossOrigin = true }, .crossOrigin),
        ("wrong rp id", .with { $0.rpID = "evil.example" }, .relyingPartyMismatch),
        ("UV missing", .with { $0.flags = 0x41 }, .userNotVerified),
        ("UP missing", .with { $0.flags = 0x44 }, .userNotPresent),
        ("BS without BE", .with { $0.flags = 0x55 }, .inconsistentBackupFlags),
        ("packed attestation", .with { $0.format = "packed" }, .unsupportedAttestation("packed")),
        ("none with a statement", .with { $0.statement = TestCBOREncoder.map([(.text("alg"), .integer(-7))]) }, .unsupportedAttestation("none with a statement")),
    ] as [(String, SoftAuthenticator.Tweaks, PasskeyError)])
    func aBrokenRegistrationIsRefusedAndNothingStored(name: String, tweaks: SoftAuthenticator.Tweaks, expected: PasskeyError) throws {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        let options = try rig.ceremonies.beginRegistration(personID: "person-1", userName: "theo", displayName: "Theo")
        let response = try authenticator.register(options, tweaks)
        #expect(throws: expected, "\(name)") { try rig.ceremonies.finishRegistration(response, personID: "person-1", name: "x") }
        #expect(try rig.ceremonies.passkeys(of: "person-1").isEmpty)
    }

    @Test func aRegistrationFinishedForAnotherPersonIsRefused() throws {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        let options = try rig.ceremonies.beginRegistration(personID: "person-1", userName: "theo", displayName: "Theo")
        let response = try authenticator.register(options)
        #expect(throws: PasskeyError.unknownChallenge) { try rig.ceremonies.finishRegistration(response, personID: "person-2", name: "x") }
        #expect(throws: PasskeyError.unknownChallenge) { try rig.ceremonies.finishRegistration(response, personID: "person-1", name: "x") }
    }

    @Test func aCredentialRegisteredAlreadyIsRefused() throws {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        _ = try rig.register(&authenticator, person: "person-1")
        #expect(throws: PasskeyError.credentialAlreadyRegistered) { try rig.register(&authenticator, person: "person-2") }
        #expect(try rig.ceremonies.passkeys(of: "person-2").isEmpty)
    }

    @Test func aResponseWhoseIDDiffersFromTheAuthenticatorDataIsRefused() throws {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        let options = try rig.ceremonies.beginRegistration(personID: "person-1", userName: "theo", displayName: "Theo")
        let honest = try authenticator.register(options)
        let response = PasskeyRegistrationResponse(credentialID: [1, 2, 3], clientDataJSON: honest.clientDataJSON, attestationObject: honest.attestationObject)
        #expect(throws: PasskeyError.credentialIDMismatch) { try rig.ceremonies.finishRegistration(response, personID: "person-1", name: "x") }
    }
}
