/// The attestation object of a registration (WebAuthn §6.5): the format, its statement and the authenticator data.
public struct AttestationObject: Hashable, Sendable {
    /// The attestation statement format, e.g. `none` or `packed`.
    public let format: String
    /// The statement (an empty map for `none`).
    public let statement: CBORValue
    /// The authenticator data, parsed.
    public let authenticatorData: AuthenticatorData

    /// Parses the CBOR map `{fmt: text, attStmt: map, authData: bytes}`.
    public init(parsing raw: [UInt8]) throws(PasskeyError) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(raw) } catch { throw .malformed("attestationObject is not valid CBOR (\(error))") }
        guard let format = value[text: "fmt"]?.textString else { throw .malformed("attestationObject has no text fmt") }
        guard let statement = value[text: "attStmt"], statement.mapEntries != nil else {
            throw .malformed("attestationObject has no attStmt map")
        }
        guard let authData = value[text: "authData"]?.byteString else { throw .malformed("attestationObject has no authData bytes") }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(parsing: authData)
    }
}
