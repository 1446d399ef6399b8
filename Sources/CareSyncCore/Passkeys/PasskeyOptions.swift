import Foundation

/// Options for `navigator.credentials.create()`: the JSON `PublicKeyCredential.parseCreationOptionsFromJSON` takes
/// (PublicKeyCredentialCreationOptionsJSON, binary members in base64url).
public struct PasskeyCreationOptions: Hashable, Sendable {
    /// The challenge issued for this ceremony.
    public let challenge: [UInt8]
    /// The options as JSON text (keys sorted).
    public let json: String
}

/// Options for `navigator.credentials.get()`: the JSON `PublicKeyCredential.parseRequestOptionsFromJSON` takes
/// (PublicKeyCredentialRequestOptionsJSON). No `allowCredentials`: the authenticator offers its discoverable passkeys.
public struct PasskeyRequestOptions: Hashable, Sendable {
    /// The challenge issued for this ceremony.
    public let challenge: [UInt8]
    /// The options as JSON text (keys sorted).
    public let json: String
}

/// The JSON shapes of WebAuthn Level 3 §5.4 / §5.5 (`…JSON` dictionaries), as CareSync fills them.
enum PasskeyOptionsJSON {
    struct Entity: Encodable { let id: String; let name: String }
    struct User: Encodable { let id: String; let name: String; let displayName: String }
    struct Parameter: Encodable { let type = "public-key"; let alg: Int64 }
    struct Descriptor: Encodable { let type = "public-key"; let id: String }
    struct Selection: Encodable {
        let residentKey = "required"
        let requireResidentKey = true
        let userVerification = "required"
    }
    struct Creation: Encodable {
        let rp: Entity
        let user: User
        let challenge: String
        let pubKeyCredParams: [Parameter]
        let timeout: Int
        let excludeCredentials: [Descriptor]
        let authenticatorSelection = Selection()
        let attestation = "none"
    }
    struct Request: Encodable {
        let challenge: String
        let rpId: String
        let timeout: Int
        let userVerification = "required"
    }

    /// `value` as compact JSON with sorted keys.
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs of strings and numbers cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

extension PasskeyRelyingParty {
    /// Creation options for `user`, excluding the credentials it has already (so one authenticator is not registered twice).
    public func creationOptions(challenge: [UInt8], userHandle: [UInt8], userName: String, displayName: String,
                                excluding existing: [[UInt8]], timeout: TimeInterval) -> PasskeyCreationOptions {
        let options = PasskeyOptionsJSON.Creation(
            rp: .init(id: id, name: name),
            user: .init(id: Base64URL.encode(userHandle), name: userName, displayName: displayName),
            challenge: Base64URL.encode(challenge),
            pubKeyCredParams: COSEPublicKey.Algorithm.allCases.map { .init(alg: $0.rawValue) },
            timeout: Int(timeout * 1000),
            excludeCredentials: existing.map { .init(id: Base64URL.encode($0)) })
        return PasskeyCreationOptions(challenge: challenge, json: PasskeyOptionsJSON.text(options))
    }

    /// Request options for a discoverable sign-in.
    public func requestOptions(challenge: [UInt8], timeout: TimeInterval) -> PasskeyRequestOptions {
        let options = PasskeyOptionsJSON.Request(challenge: Base64URL.encode(challenge), rpId: id, timeout: Int(timeout * 1000))
        return PasskeyRequestOptions(challenge: challenge, json: PasskeyOptionsJSON.text(options))
    }
}
