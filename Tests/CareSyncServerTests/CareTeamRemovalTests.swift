import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// Taking a patient off a care team (`DELETE /v1/care-teams/{name}/patients/{patientId}`): the team's therapists lose
/// the patient at once — their parked long polls answer 404, their streams end, every later request is 404 and the
/// patient leaves the team's lists — while the patient's devices and other teams keep theirs. Over real sockets.
@Suite(.serialized) struct CareTeamRemovalTests {
    static let remove = "/v1/care-teams/physio/patients/alice"

    @Test func takingAPatientOffEndsTheTeamsStreamAndParkedPollAtOnce() async throws {
        try await TestServer.with(configure: { $0.stream.keepAlive = .seconds(300) }) { server in
            let (id, secret) = try TokenCutOffTests.therapist(server)
            let (stream, poll) = try await TokenCutOffTests.streamAndPoll(server, id: id, secret: secret)
            let removed = ContinuousClock.now
            let reply = try await server.send("DELETE", Self.remove, token: server.tokens.admin)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json == ["name": "physio", "patients": []])
            // Nothing commits: the removal itself ends both, long before the poll's wait and the keep-alive.
            let answer = try await poll.value
            answer.expectProblem(404, "notFound")
            try await TokenCutOffTests.expectEnded(stream)
            #expect(ContinuousClock.now - removed < .seconds(TokenCutOffTests.pollSeconds / 2), "ended after \(ContinuousClock.now - removed)")
            stream.close()
            // A later change reaches neither this therapist nor the team's lists; the device keeps writing and reading.
            try await TokenCutOffTests.write(server, 2)
            for path in ["/v1/patients/alice/changes", "/v1/patients/alice", "/v1/patients/alice/status"] {
                try await server.send("GET", path, token: secret).expectProblem(404, "notFound")
            }
            let inReach = try await server.send("GET", "/v1/patients", token: secret)
            #expect(inReach.json["patients"]?.arrayValue?.isEmpty == true, "\(inReach.text)")
            let team = try await server.send("GET", "/v1/care-teams/physio/status", token: secret)
            #expect(team.status == 200 && !team.text.contains("alice"), "\(team.text)")
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice).status == 200)
            let records = try await TokenCutOffTests.audit(server, token: id)
            #expect(records.filter { $0.0 == "changes.stream.end" }.map(\.2) == [404], "\(records)")
            #expect(records.filter { $0.0 == "changes.read" }.map(\.2) == [200, 404, 404], "\(records)")
        }
    }

    @Test func aRemovalIsAuditedAndRefusesWhatIsNotThere() async throws {
        try await TestServer.with { server in
            let admin = server.tokens.admin
            try await server.send("DELETE", "/v1/care-teams/nobody/patients/alice", token: admin).expectProblem(404, "notFound")
            try await server.send("DELETE", "/v1/care-teams/physio/patients/bob", token: admin).expectProblem(404, "notFound")
            try await server.send("DELETE", Self.remove, token: server.tokens.therapist).expectProblem(403, "forbidden")
            #expect(try await server.send("DELETE", Self.remove, token: admin).status == 200)
            try await server.send("DELETE", Self.remove, token: admin).expectProblem(404, "notFound")
            let teams = try await server.send("GET", "/v1/care-teams", token: admin)
            #expect(teams.json["careTeams"]?.arrayValue?.first { $0["name"] == "physio" }?["patients"] == [])
            let audit = try await server.send("GET", "/v1/audit?patient=alice&limit=20", token: admin)
            // Every attempt naming alice, refused or not, oldest first.
            let statuses = (audit.json["records"]?.arrayValue ?? []).reversed()
                .filter { $0["action"]?.stringValue == "admin.careTeam.removePatient" }.compactMap { $0["status"]?.numberValue }
            #expect(statuses == [404, 403, 200, 404], "\(audit.text)")
            // Added again, the team's therapists reach the patient again.
            #expect(try await server.send("POST", "/v1/care-teams/physio/patients", token: admin, json: ["patientId": "alice"]).status == 200)
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist).status == 200)
        }
    }

    /// A patient on two of a therapist's teams stays in reach when taken off one of them.
    @Test func anotherTeamOfTheTherapistKeepsThePatient() async throws {
        try await TestServer.with { server in
            let admin = server.app.api.admin
            try admin.addPatient("alice", toCareTeam: "cardio")
            let both = try admin.createToken(TokenSpec(role: .therapist, careTeams: ["physio", "cardio"], source: "org.example.both"), now: Date())
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: both.secret).status == 200)
            #expect(try await server.send("DELETE", Self.remove, token: server.tokens.admin).status == 200)
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: both.secret).status == 200)
            try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist).expectProblem(404, "notFound")
        }
    }

    /// The command line's removal in another process on the same SQLite file: the server learns of it by its own look
    /// (`ReachWatch`, every 5 s when serving); after it, the reach the server proved before is gone.
    @Test func theReachWatchEndsTheReachTheServerProvedBeforeTheCommandLinesRemoval() async throws {
        try await TestServer.with(.inMemory) { server in
            let (watch, cli) = try await server.reachWatchBesideTheCommandLine()
            #expect(try cli.access.removePatient("alice", fromCareTeam: "physio", at: Date()))
            try await server.expectReachEnded(by: watch, noticing: .removal)
        }
    }

    /// A reach read from the store before a forget is not kept after it: the read may predate the removal the forget
    /// announced (a request racing the removal is answered, the next one reads the store again).
    @Test func aReachReadBeforeAForgetIsNotKept() throws {
        let access = InMemoryAccessStore(), now = Date()
        try access.createPatient(PatientRecord(id: "alice", timeZone: "UTC", createdAt: now))
        try access.createCareTeam(name: "physio", now: now)
        try access.addPatient("alice", toCareTeam: "physio")
        let authenticator = Authenticator(store: access)
        let token = TokenRecord(id: "t1", secretHash: [], role: .therapist, patient: nil, careTeams: ["physio"], source: "s",
                                readTypes: nil, writeTypes: nil, createdAt: now, expiresAt: nil)
        let principal = Principal(token: token)
        let mark = authenticator.reachMark
        authenticator.forget(patient: "alice")
        authenticator.keep(Authenticator.reachKey(team: "physio", patient: "alice"), readAfter: mark)
        #expect(!authenticator.isKnownInReach(principal, patient: "alice"))
        try authenticator.requireReach(principal, patient: "alice")
        #expect(authenticator.isKnownInReach(principal, patient: "alice"))
        authenticator.forget(patient: "alice")
        #expect(!authenticator.isKnownInReach(principal, patient: "alice"))
    }
}
