import CareSyncCore
import CareSyncHTTP
import Foundation

/// Passkeys as JSON: what a person may know of their credentials (never the public key or the user handle).
enum PasskeyWire {
    /// A registered passkey as the API answers it; `id` is the credential id in base64url.
    static func encode(_ c: PasskeyCredential) -> JSONValue {
        ["id": .string(Base64URL.encode(c.credentialID)), "name": .string(c.name),
         "algorithm": .string(c.algorithm == COSEPublicKey.Algorithm.rs256.rawValue ? "RS256" : "ES256"),
         "backupEligible": .bool(c.backupEligible), "backedUp": .bool(c.backedUp),
         "createdAt": .string(RFC3339.format(c.createdAt)), "lastUsedAt": .optional(c.lastUsedAt.map(RFC3339.format))]
    }

    /// A list of passkeys.
    static func list(_ all: [PasskeyCredential]) -> JSONValue { ["passkeys": .array(all.map(encode))] }

    /// The browser's credential (`cred.toJSON()`) under `credential` in a request body, as the bytes the parsers take.
    static func credential(in body: JSONValue) -> [UInt8]? {
        guard let credential = body["credential"], case .object = credential else { return nil }
        return credential.serialized()
    }
}
