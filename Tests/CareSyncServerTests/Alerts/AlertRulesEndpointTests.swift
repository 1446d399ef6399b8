import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// GET/PUT /v1/care-teams/{name}/alert-rules: the defaults, replacement, precise 422s with nothing stored, who may.
@Suite(.serialized) struct AlertRulesEndpointTests {
    static let path = "/v1/care-teams/physio/alert-rules"

    @Test func defaultsUntilSetThenReplaced() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let first = try await server.send("GET", Self.path, token: t.therapist)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["default"] == .bool(true) && first.json["rules"]?["deviceSilent"]?["hours"]?.integerValue == 48)
            #expect(first.json["rules"]?["weeklyStepsDrop"]?["percent"]?.numberValue == 30)
            #expect(first.json["rules"]?["walkTestDrop"]?["meters"]?.numberValue == 50)
            let put = try await server.send("PUT", Self.path, token: t.therapist, json: ["rules": [
                "deviceSilent": ["hours": 12], "walkTestDrop": ["enabled": false, "meters": 80], "periodBehindPace": ["enabled": false]]])
            #expect(put.status == 200, "\(put.text)")
            let read = try await server.send("GET", Self.path, token: t.admin)
            #expect(read.status == 200 && read.json["default"] == .bool(false))
            #expect(read.json["rules"]?["deviceSilent"]?["enabled"] == .bool(true) && read.json["rules"]?["deviceSilent"]?["hours"]?.integerValue == 12)
            #expect(read.json["rules"]?["walkTestDrop"]?["enabled"] == .bool(false) && read.json["rules"]?["walkTestDrop"]?["meters"]?.numberValue == 80)
            #expect(read.json["rules"]?["periodBehindPace"]?["enabled"] == .bool(false))
            #expect(read.json["rules"]?["weeklyStepsDrop"]?["percent"]?.numberValue == 30, "a rule left out takes its default")
            let stored = try server.app.backend.alerts.rules(careTeam: "physio")
            #expect(stored?.deviceSilentHours == 12 && stored?.walkTestDropEnabled == false)
            let audit = try server.app.api.access.audit(AuditQuery(limit: 50)).map(\.action)
            #expect(audit.contains("careTeam.alertRules.set") && audit.contains("careTeam.alertRules.read"))
        }
    }

    @Test func badRulesAre422NamingEachMemberAndNothingIsStored() async throws {
        try await TestServer.with(.inMemory) { server in
            let bad = try await server.send("PUT", Self.path, token: server.tokens.therapist, json: ["rules": [
                "deviceSilent": ["hours": 0], "weeklyStepsDrop": ["percent": 101], "walkTestDrop": ["meters": "far"],
                "periodCannotReach16": ["enabled": "yes"], "heartRateHigh": ["enabled": true], "periodBehindPace": ["limit": 3]]])
            bad.expectProblem(422, "validationFailed")
            let fields = Set((bad.json["errors"]?.arrayValue ?? []).compactMap { $0["field"]?.stringValue })
            #expect(fields == ["rules.deviceSilent.hours", "rules.weeklyStepsDrop.percent", "rules.walkTestDrop.meters",
                               "rules.periodCannotReach16.enabled", "rules.heartRateHigh", "rules.periodBehindPace.limit"], "\(fields)")
            // Without `rules`, the one member AlertRulesDraft requires: 422 naming it.
            let missing = try await server.send("PUT", Self.path, token: server.tokens.therapist, json: ["deviceSilent": ["hours": 5]])
            missing.expectProblem(422, "validationFailed")
            #expect(missing.json["errors"]?[0]?["field"] == "rules", "\(missing.text)")
            try await server.send("PUT", Self.path, token: server.tokens.therapist, json: ["rules": ["deviceSilent": ["hours": 1.5]]])
                .expectProblem(422, "validationFailed")
            #expect(try server.app.backend.alerts.rules(careTeam: "physio") == nil)
        }
    }

    @Test func onlyTheTeamsTherapistsAndAdmins() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            try await server.send("GET", Self.path, token: t.otherTherapist).expectProblem(404, "notFound")
            try await server.send("PUT", Self.path, token: t.aliceDevice, json: ["rules": [:]]).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/care-teams/nosuch/alert-rules", token: t.admin).expectProblem(404, "notFound")
            try await server.send("GET", Self.path).expectProblem(401, "unauthorized")
            #expect(try await server.send("PUT", Self.path, token: t.admin, json: ["rules": [:]]).status == 200)
            let refusals = try server.app.api.access.audit(AuditQuery(limit: 50)).filter { $0.action == "careTeam.alertRules.read" && $0.status == 404 }
            #expect(refusals.count == 2)
        }
    }
}
