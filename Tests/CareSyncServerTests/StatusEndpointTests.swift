import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// GET …/status and GET /v1/care-teams/{name}/status over HTTP: figures, reach, read types, audit, 422s.
@Suite(.serialized) struct StatusEndpointTests {
    /// A step sample starting `hoursAgo` before now.
    static func steps(_ value: Double, hoursAgo: Double) -> JSONValue {
        let start = Date().addingTimeInterval(-hoursAgo * 3600)
        return ["type": "stepCount", "value": .number(value), "unit": "count", "start": .string(RFC3339.format(start)),
                "end": .string(RFC3339.format(start.addingTimeInterval(600)))]
    }

    @Test func aDeviceThatJustWroteIsNotSilentAndItsDayHasData() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let posted = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                               json: ["samples": [Self.steps(1000, hoursAgo: 0.01)]])
            #expect(posted.status == 200, "\(posted.text)")
            // The therapist's sample eight days ago is no device data: that day stays a gap.
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.therapist,
                                      json: ["samples": [Self.steps(50, hoursAgo: 8 * 24)]])
            let reply = try await server.send("GET", "/v1/patients/alice/status", token: t.therapist)
            #expect(reply.status == 200, "\(reply.text)")
            let sources = reply.json["sources"]?.arrayValue ?? []
            let phone = sources.first { $0["source"] == "org.example.phone.alice" }
            #expect(phone?["silent"] == .bool(false))
            #expect(phone?["lastReceivedAt"]?.stringValue != nil)
            #expect(reply.json["daysWithData"]?.arrayValue?.count == 1)
            #expect(reply.json["window"]?["end"] == reply.json["daysWithData"]?[0])
            #expect(reply.json["gaps"]?.arrayValue?.count == 1)
            #expect(reply.json["gaps"]?[0]?["days"]?.integerValue == 27)
            #expect(reply.json["weeks"]?[0]?["type"] == "stepCount")
            // The revoked and expired fixture tokens of alice never wrote: their sources are listed with nulls, and are not
            // silent, since nothing is expected of a token that no longer works.
            let retired = sources.filter { $0["source"] != "org.example.phone.alice" }
            #expect(retired.count == 2)
            #expect(retired.allSatisfy { $0["silent"] == .bool(false) && $0["lastReceivedAt"] == .null })
        }
    }

    @Test func aDeviceStopsBeingSilentWhenItsTokenIsRevoked() async throws {
        try await TestServer.with(.inMemory) { server in
            func phone() async throws -> JSONValue? {
                let reply = try await server.send("GET", "/v1/patients/alice/status", token: server.tokens.therapist)
                return reply.json["sources"]?.arrayValue?.first { $0["source"] == "org.example.phone.alice" }
            }
            let before = try await phone()
            #expect(before?["silent"] == .bool(true) && before?["active"] == .bool(true))
            let id = try #require(try server.app.api.access.tokens().first { $0.source == "org.example.phone.alice" }?.id)
            try server.app.api.admin.revokeToken(id: id, now: Date())
            let after = try await phone()
            #expect(after?["silent"] == .bool(false) && after?["active"] == .bool(false))
        }
    }

    @Test func anEnrolledDeviceIsNamedInThePatientAndTeamStatus() async throws {
        try await TestServer.with(.inMemory) { server in
            let made = try await EnrolmentEndpointTests.create(server, token: server.tokens.therapist)
            #expect(made.status == 201, "\(made.text)")
            let code = try #require(made.json["code"]?.stringValue)
            let redeemed = try await EnrolmentEndpointTests.redeem(server, code, source: "org.example.watch.alice")
            #expect(redeemed.status == 201, "\(redeemed.text)")
            let single = try await server.send("GET", "/v1/patients/alice/status", token: server.tokens.therapist)
            let team = try await server.send("GET", "/v1/care-teams/physio/status", token: server.tokens.therapist)
            for sources in [single.json["sources"], team.json["patients"]?[0]?["sources"]] {
                let named = Dictionary(uniqueKeysWithValues: (sources?.arrayValue ?? []).compactMap { s in s["source"]?.stringValue.map { ($0, s["displayName"]) } })
                #expect(named["org.example.watch.alice"] == .some(.string("Apple Watch")), "\(named)")
                #expect(named["org.example.phone.alice"] == .some(.null), "a token made without a code has no name: \(named)")
            }
        }
    }

    @Test func aTokenThatMayNotReadStepsSeesNoStepDays() async throws {
        try await TestServer.with(.inMemory) { server in
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                      json: ["samples": [Self.steps(1000, hoursAgo: 1)]])
            let reply = try await server.send("GET", "/v1/patients/alice/status", token: server.tokens.narrow)
            #expect(reply.status == 200)
            #expect(reply.json["daysWithData"]?.arrayValue?.isEmpty == true)
            #expect(reply.json["weeks"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func reachAuthAndValidation() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            try await server.send("GET", "/v1/patients/alice/status", token: t.otherTherapist).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/patients/alice/status", token: t.bobDevice).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/patients/alice/status").expectProblem(401, "unauthorized")
            let bad = try await server.send("GET", "/v1/patients/alice/status?silentHours=0&weeks=27", token: t.therapist)
            bad.expectProblem(422, "validationFailed")
            #expect(Set((bad.json["errors"]?.arrayValue ?? []).compactMap { $0["field"]?.stringValue }) == ["silentHours", "weeks"])
            try await server.send("GET", "/v1/care-teams/cardio/status", token: t.therapist).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/care-teams/physio/status", token: t.aliceDevice).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/care-teams/physio/status?only=everyone", token: t.therapist).expectProblem(422, "validationFailed")
            let audit = try server.app.api.access.audit(AuditQuery(patient: "alice", limit: 20))
            #expect(audit.contains { $0.action == "status.read" && $0.status == 404 })
            #expect(!audit.contains { $0.action == "status.read" && $0.status == 200 })
        }
    }

    @Test func aCareTeamIsSortedByAttentionAndFiltered() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens, admin = server.app.api.admin
            _ = try admin.createPatient(id: "carol", timeZone: "Europe/Berlin", now: Date())
            try admin.addPatient("carol", toCareTeam: "physio")
            let carolDevice = try admin.createToken(TokenSpec(role: .device, patient: "carol", source: "org.example.phone.carol"), now: Date()).secret
            // Carol's device wrote each of the last 8 days; alice's devices never did.
            let samples = (0..<8).map { Self.steps(100, hoursAgo: Double($0) * 24 + 0.5) }
            #expect(try await server.send("POST", "/v1/patients/carol/samples", token: carolDevice, json: ["samples": .array(samples)]).status == 200)
            let reply = try await server.send("GET", "/v1/care-teams/physio/status", token: t.therapist)
            #expect(reply.status == 200, "\(reply.text)")
            let patients = reply.json["patients"]?.arrayValue ?? []
            #expect(patients.map { $0["patient"] } == ["alice", "carol"])
            // Carol may miss today alone (just after her midnight); alice's devices are all silent.
            #expect((patients.last?["attention"]?["score"]?.integerValue ?? 99) <= 10)
            let filtered = try await server.send("GET", "/v1/care-teams/physio/status?only=silent", token: t.therapist)
            #expect(filtered.json["patients"]?.arrayValue?.map { $0["patient"] } == ["alice"])
            let audit = try server.app.api.access.audit(AuditQuery(patient: "carol", limit: 20))
            #expect(audit.filter { $0.action == "status.read" && $0.status == 200 }.count == 1)
        }
    }
}
