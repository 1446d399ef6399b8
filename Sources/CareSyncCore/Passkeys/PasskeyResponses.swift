import Foundation

/// What the browser sends back from `navigator.credentials.create()`: the binary members of the credential's
/// `toJSON()` (RegistrationResponseJSON), decoded from base64url.
public struct PasskeyRegistrationResponse: Hashable, Sendable {
    /// `rawId`: the credential id.
    public let credentialID: [UInt8]
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.attestationObject`.
    public let attestationObject: [UInt8]

    /// A response from its parts.
    public init(credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }

    private struct JSON: Decodable {
        struct Response: Decodable { let clientDataJSON: String; let attestationObject: String }
        let id: String
        let rawId: String
        let type: String
        let response: Response
    }

    /// Parses the JSON body; `id` must equal `rawId` and `type` be `public-key`.
    public init(json: [UInt8]) throws(PasskeyError) {
        let body: JSON
        do { body = try JSONDecoder().decode(JSON.self, from: Data(json)) } catch {
            throw .malformed("not a RegistrationResponseJSON object (id, rawId, type, response.clientDataJSON, response.attestationObject)")
        }
        guard body.type == "public-key" else { throw .malformed("type is not public-key") }
        self.init(credentialID: try PasskeyJSON.bytes(body.rawId, "rawId"), clientDataJSON: try PasskeyJSON.bytes(body.response.clientDataJSON, "clientDataJSON"),
                  attestationObject: try PasskeyJSON.bytes(body.response.attestationObject, "attestationObject"))
        guard body.id == body.rawId else { throw .credentialIDMismatch }
    }
}

/// What the browser sends back from `navigator.credentials.get()`: the binary members of the credential's
/// `toJSON()` (AuthenticationResponseJSON), decoded from base64url.
public struct PasskeyAssertionResponse: Hashable, Sendable {
    /// `rawId`: the credential id.
    public let credentialID: [UInt8]
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.authenticatorData`.
    public let authenticatorData: [UInt8]
    /// `response.signature`.
    public let signature: [UInt8]
    /// `response.userHandle`: the `user.id` given at registration (discoverable credentials always return it).
    public let userHandle: [UInt8]?

    /// A response from its parts.
    public init(credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    private struct JSON: Decodable {
        struct Response: Decodable {
            let clientDataJSON: String
            let authenticatorData: String
            let signature: String
            let userHandle: String?
        }
        let id: String
        let rawId: String
        let type: String
        let response: Response
    }

    /// Parses the JSON body; `id` must equal `rawId` and `type` be `public-key`.
    public init(json: [UInt8]) throws(PasskeyError) {
        let body: JSON
        do { body = try JSONDecoder().decode(JSON.self, from: Data(json)) } catch {
            throw .malformed("not an AuthenticationResponseJSON object (id, rawId, type, response.clientDataJSON, authenticatorData, signature)")
        }
        guard body.type == "public-key" else { throw .malformed("type is not public-key") }
        self.init(credentialID: try PasskeyJSON.bytes(body.rawId, "rawId"),
                  clientDataJSON: try PasskeyJSON.bytes(body.response.clientDataJSON, "clientDataJSON"),
                  authenticatorData: try PasskeyJSON.bytes(body.response.authenticatorData, "authenticatorData"),
                  signature: try PasskeyJSON.bytes(body.response.signature, "signature"),
                  userHandle: try body.response.userHandle.map { s throws(PasskeyError) in try PasskeyJSON.bytes(s, "userHandle") })
        guard body.id == body.rawId else { throw .credentialIDMismatch }
    }
}

/// base64url members of the JSON forms.
enum PasskeyJSON {
    /// The bytes of `text`, or `malformed` naming the member.
    static func bytes(_ text: String, _ member: String) throws(PasskeyError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else { throw .malformed("\(member) is not base64url") }
        return bytes
    }
}
