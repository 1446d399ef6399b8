import CareSyncCore
import CareSyncHTTP
import Crypto
import Foundation

/// A person's OpenID Connect identities: listed (the person or an admin), linked and unlinked (admins), all audited.
/// An identity's public id is derived from (issuer, subject), so nothing more is stored.
struct IdentitiesController: Sendable {
    let gate: AccessGate
    let calls: StoreCalls
    let clock: ServerClock
    /// The configured issuer: the default of a link request; nil when OpenID Connect is off.
    let issuer: String?

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/v1/people/{personId}/identities", list),
            APIRoute(.post, "/v1/people/{personId}/identities", link),
            APIRoute(.delete, "/v1/people/{personId}/identities/{identityId}", unlink),
        ]
    }

    /// GET /v1/people/{personId}/identities → `{"identities": [...]}`, oldest first.
    func list(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.personScoped(request, context, action: "person.identity.list") { _, personID in
            let store = self.gate.people.store
            let list = try await self.calls.blocking { () -> [PersonIdentity] in
                guard try store.person(id: personID) != nil else { throw HTTPError.notFound("No such person.") }
                return try store.identities(person: personID)
            }
            return Response.json(["identities": .array(list.map(Self.encode))])
        }
    }

    /// POST /v1/people/{personId}/identities `{"issuer"?, "subject"}` → 201: the identity signs that person in.
    /// 404 for an unknown person, 409 when the identity is linked (to anyone) already, 422 for bad fields.
    func link(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.person.identity.link") { _ in
            let personID = try context.parameter("personId")
            let body = try request.jsonBody()
            var problems: [ValidationProblem] = []
            let issuer = body["issuer"]?.stringValue ?? (body["issuer"] == nil || body["issuer"] == .null ? self.issuer : nil)
            if issuer == nil || issuer?.isEmpty == true || (issuer?.utf8.count ?? 0) > 2048 {
                problems.append(ValidationProblem(index: nil, field: "issuer", message: "the provider's issuer URL (1–2048 bytes); defaults to oidc.issuer when that is set"))
            }
            let subject = body["subject"]?.stringValue
            if subject == nil || subject?.isEmpty == true || (subject?.utf8.count ?? 0) > 255 || subject.map({ InvisibleCharacters.occur(in: $0) }) == true {
                problems.append(ValidationProblem(index: nil, field: "subject", message: "the provider's subject id (sub), 1–255 bytes without control characters"))
            }
            guard problems.isEmpty, let issuer, let subject else { throw HTTPError.validation(problems) }
            let identity = PersonIdentity(issuer: issuer, subject: subject, personID: personID, createdAt: self.clock.now())
            let store = self.gate.people.store
            try await self.calls.blocking {
                do { try store.linkIdentity(identity) } catch AccessStoreError.missing {
                    throw HTTPError.notFound("No such person.")
                } catch AccessStoreError.alreadyExists {
                    throw HTTPError.conflict("This identity is linked to a person already; unlink it there first.")
                }
            }
            return Response.json(Self.encode(identity), status: .created)
        }
    }

    /// DELETE /v1/people/{personId}/identities/{identityId} → 204; 404 when the person has no such identity.
    func unlink(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.person.identity.unlink") { _ in
            let personID = try context.parameter("personId"), identityID = try context.parameter("identityId")
            let store = self.gate.people.store
            try await self.calls.blocking {
                guard let found = try store.identities(person: personID).first(where: { Self.id(of: $0) == identityID }),
                      try store.unlinkIdentity(issuer: found.issuer, subject: found.subject, person: personID) else {
                    throw HTTPError.notFound("This person has no such identity.")
                }
            }
            return Response(status: .noContent)
        }
    }

    /// The public id of an identity: the first 16 bytes of SHA-256(issuer, NUL, subject), as 32 hex digits.
    static func id(of identity: PersonIdentity) -> String {
        SHA256.hash(data: Array("\(identity.issuer)\u{0}\(identity.subject)".utf8)).prefix(16)
            .map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// An identity as the API answers it.
    static func encode(_ i: PersonIdentity) -> JSONValue {
        ["id": .string(id(of: i)), "issuer": .string(i.issuer), "subject": .string(i.subject), "personId": .string(i.personID),
         "createdAt": .string(RFC3339.format(i.createdAt))]
    }
}
