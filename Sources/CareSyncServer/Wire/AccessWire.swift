import CareSyncCore
import CareSyncHTTP

/// Access records as JSON: patients and tokens (never a secret or a hash).
enum AccessWire {
    /// A patient as the API answers it.
    static func encode(_ p: PatientRecord) -> JSONValue {
        ["id": .string(p.id), "timeZone": .string(p.timeZone), "displayName": .string(p.displayName),
         "createdAt": .string(RFC3339.format(p.createdAt))]
    }

    /// A token as the API answers it: its record, without the secret or its hash.
    static func encode(_ t: TokenRecord) -> JSONValue {
        [
            "id": .string(t.id), "role": .string(t.role.rawValue), "patient": .optional(t.patient),
            "careTeams": .array(t.careTeams.map(JSONValue.string)), "source": .string(t.source),
            "readTypes": t.readTypes.map { .array($0.map(\.rawValue).sorted().map(JSONValue.string)) } ?? .null,
            "writeTypes": t.writeTypes.map { .array($0.map(\.rawValue).sorted().map(JSONValue.string)) } ?? .null,
            "createdAt": .string(RFC3339.format(t.createdAt)),
            "expiresAt": .optional(t.expiresAt.map(RFC3339.format)), "revokedAt": .optional(t.revokedAt.map(RFC3339.format)),
        ]
    }
}
