import CareSyncCore
import CareSyncHTTP
import Crypto

/// The rule each path id meets before it reaches a lookup or an audit record (docs/api.md, "Ids in paths"):
/// an id that breaks its rule names nothing, so it is answered 404 at once and audited only as a hash.
enum PathID {
    /// Whether `value` meets the rule of the path parameter `name`; a parameter without a rule passes.
    static func isValid(_ value: String, name: String) -> Bool {
        switch name {
        case "patientId": return AccessAdmin.isValidName(value, max: 64)
        case "name": return AccessAdmin.isValidName(value, max: 100)
        case "tokenId", "enrolmentId", "personId", "sessionId": return value.utf8.count == 16 && value.utf8.allSatisfy(isLowerHex)
        case "passkeyId": return (1...1366).contains(value.utf8.count) && Base64URL.decode(value) != nil
        case "identityId": return value.utf8.count == 32 && value.utf8.allSatisfy(isLowerHex)
        case "exportId": return value.utf8.count == 36 && value.utf8.allSatisfy { isLowerHex($0) || $0 == 45 }
        case "webhookId": return value.utf8.count == 19 && value.hasPrefix("wh_") && value.utf8.dropFirst(3).allSatisfy(isLowerHex)
        case "syncIdentifier":
            return !value.isEmpty && value.utf8.count <= SampleValidator.maxSyncIdentifierBytes / 2 && !InvisibleCharacters.occur(in: value)
        default: return true
        }
    }

    /// The 404 answering an id that breaks the rule of `name`; it tells the rule, which is the same for everyone.
    static func refusal(name: String) -> HTTPError {
        switch name {
        case "patientId": HTTPError.notFound("No such patient: a patient id is 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'.")
        case "name": HTTPError.notFound("No such care team: a name is 1–100 characters of A–Z, a–z, 0–9, '.', '_' or '-'.")
        case "tokenId": HTTPError.notFound("No such token: a token id is 16 hexadecimal digits.")
        case "enrolmentId": HTTPError.notFound("No such enrolment: an enrolment id is 16 hexadecimal digits.")
        case "personId": HTTPError.notFound("No such person: a person id is 16 hexadecimal digits.")
        case "sessionId": HTTPError.notFound("No such session: a session id is 16 hexadecimal digits.")
        case "passkeyId": HTTPError.notFound("No such passkey: a passkey id is its credential id in base64url (1–1366 characters).")
        case "identityId": HTTPError.notFound("No such identity: an identity id is 32 hexadecimal digits.")
        case "webhookId": HTTPError.notFound("No such webhook: a webhook id is 'wh_' and 16 hexadecimal digits.")
        default: HTTPError.notFound("No such \(name): it breaks the rule of its kind of id.")
        }
    }

    /// How an audit record names a patient id: the id itself when it meets the rule, else `sha256:` and the first
    /// 16 hex digits of its SHA-256 (never its text, which may carry line breaks, NULs or kilobytes).
    static func auditPatient(_ value: String?) -> String? {
        guard let value else { return nil }
        return isValid(value, name: "patientId") ? value : hashed(value)
    }

    /// `sha256:` and the first 16 hex digits of the SHA-256 of `value`'s UTF-8 bytes.
    static func hashed(_ value: String) -> String {
        "sha256:" + SHA256.hash(data: Array(value.utf8)).prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    private static func isLowerHex(_ c: UInt8) -> Bool { (c >= 48 && c <= 57) || (c >= 97 && c <= 102) }
}
