import CareSyncCore
import CareSyncHTTP
import Foundation

/// People who sign in with a browser: invitations, the list, deactivation (admins), and a person's sessions
/// (listed and revoked by the person or an admin).
struct PeopleController: Sendable {
    let gate: AccessGate
    let calls: StoreCalls
    let clock: ServerClock
    /// Ends the parked long polls and event streams of a deactivated person at once.
    let notifier: ChangeNotifier
    /// The origin invitation links start with; nil: the request's own.
    let linkOrigin: String?

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/people/invitations", invite),
            APIRoute(.get, "/v1/people", listPeople),
            APIRoute(.post, "/v1/people/{personId}/deactivate", deactivate),
            APIRoute(.get, "/v1/people/{personId}/sessions", listSessions),
            APIRoute(.delete, "/v1/people/{personId}/sessions/{sessionId}", revokeSession),
        ]
    }

    /// POST /v1/people/invitations `{"role","careTeams","displayName","personId"}` → 201 with the one-time link.
    func invite(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.person.invite") { _ in
            let o = try request.jsonBody()
            var problems: [ValidationProblem] = []
            let role = o["role"]?.stringValue.flatMap(Role.init(rawValue:))
            if role == nil || role == .device { problems.append(ValidationProblem(index: nil, field: "role", message: "must be therapist or admin")) }
            let teams = o["careTeams"]?.arrayValue?.compactMap(\.stringValue)
            if let given = o["careTeams"], given != .null, teams?.count != given.arrayValue?.count {
                problems.append(ValidationProblem(index: nil, field: "careTeams", message: "must be an array of strings"))
            }
            for field in ["displayName", "personId"] where o[field] != nil && o[field] != .null && o[field]?.stringValue == nil {
                problems.append(ValidationProblem(index: nil, field: field, message: "must be a string"))
            }
            guard problems.isEmpty, let role else { throw HTTPError.validation(problems) }
            let people = self.gate.people, now = self.clock.now()
            let (invitation, secret) = try await self.calls.blocking {
                try people.invite(role: role, careTeams: teams ?? [], displayName: o["displayName"]?.stringValue ?? "",
                                  personID: o["personId"]?.stringValue, now: now)
            }
            let origin = self.linkOrigin ?? Credentials(head: request.head, trusted: self.gate.trustedProxies).ownOrigin ?? ""
            return Response.json(["invitation": PeopleWire.encode(invitation), "secret": .string(secret),
                                  "link": .string(InvitationLink.make(origin: origin, secret: secret))], status: .created)
        }
    }

    /// GET /v1/people: every person (admin).
    func listPeople(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.person.list") { _ in
            let store = self.gate.people.store
            let list = try await self.calls.blocking { try store.people() }
            return Response.json(["people": .array(list.map(PeopleWire.encode))])
        }
    }

    /// POST /v1/people/{personId}/deactivate: the person can no longer sign in, and every session of theirs ends now.
    func deactivate(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.person.deactivate") { _ in
            let id = try context.parameter("personId")
            let people = self.gate.people, now = self.clock.now()
            let person = try await self.calls.blocking { () -> PersonRecord? in
                guard try people.deactivate(personID: id, now: now) else { return nil }
                return try people.store.person(id: id)
            }
            guard let person else { throw HTTPError.notFound("No such person.") }
            self.notifier.interrupt(Principal.personTokenID(id))
            return Response.json(PeopleWire.encode(person))
        }
    }

    /// GET /v1/people/{personId}/sessions: the person's sessions, newest first (the person or an admin).
    func listSessions(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.personScoped(request, context, action: "person.session.list") { principal, personID in
            let store = self.gate.people.store
            let list = try await self.calls.blocking { try store.sessions(person: personID) }
            let idle = self.gate.people.policy.idleTimeout
            return Response.json(["sessions": .array(list.map { PeopleWire.encode($0, current: $0.id == principal.session?.id, idle: idle) })])
        }
    }

    /// DELETE /v1/people/{personId}/sessions/{sessionId}: ends one session → 204 (the person or an admin).
    func revokeSession(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.personScoped(request, context, action: "person.session.revoke") { _, personID in
            let sessionID = try context.parameter("sessionId")
            let people = self.gate.people, now = self.clock.now()
            guard try await self.calls.blocking({ try people.endSession(id: sessionID, of: personID, now: now) }) else {
                throw HTTPError.notFound("No such session.")
            }
            return Response(status: .noContent)
        }
    }
}
