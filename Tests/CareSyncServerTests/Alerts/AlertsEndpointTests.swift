import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Alerts over HTTP with an injected clock: raised once by the scheduled evaluation, listed per team and patient,
/// shown in the status and its attention score, acknowledged and resolved by a therapist (audited), raised on a commit.
@Suite(.serialized) struct AlertsEndpointTests {
    /// A step sample of alice's phone, starting now.
    static func steps(_ value: Double, at start: Date) -> JSONValue {
        ["type": "stepCount", "value": .number(value), "unit": "count", "start": .string(RFC3339.format(start)),
         "end": .string(RFC3339.format(start.addingTimeInterval(600)))]
    }

    /// Two more working device tokens for alice that never write (her revoked and expired fixture tokens raise nothing).
    static func addSilentDevices(_ server: TestServer) throws {
        for source in ["org.example.watch.alice", "org.example.scale.alice"] {
            _ = try server.app.api.admin.createToken(TokenSpec(role: .device, patient: "alice", source: source), now: Date())
        }
    }

    @Test func silenceIsRaisedByTheScheduledEvaluationOnceTimeHasPassed() async throws {
        try await TestServer.with(.inMemory) { server in
            try Self.addSilentDevices(server)
            let clock = ManualClock()
            let job = server.app.makeAlertJob(clock: clock)
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                          json: ["samples": [Self.steps(1200, at: clock.now())]]).status == 200)
            // alice's phone has just written; her watch and scale never did: those two are silent at once.
            let first = try #require(try job.runAll())
            #expect(first.filter { $0.patient == "alice" }.count == 2 && first.allSatisfy { $0.kind == .raised && $0.rule == .deviceSilent })
            #expect(try job.runAll()?.isEmpty == true, "raised once")
            clock.advance(by: 47 * 3600)
            #expect(try job.runAll()?.isEmpty == true, "47 h is not more than 48 h")
            clock.advance(by: 2 * 3600)
            let later = try #require(try job.runAll())
            #expect(later.map(\.patient) == ["alice"] && later.map(\.kind) == [.raised])
            let listed = try await server.send("GET", "/v1/care-teams/physio/alerts?state=open", token: server.tokens.therapist)
            #expect(listed.status == 200, "\(listed.text)")
            let subjects = (listed.json["alerts"]?.arrayValue ?? []).compactMap { $0["subject"]?.stringValue }
            #expect(subjects.count == 3 && subjects.first == "org.example.phone.alice", "\(subjects)")
            #expect(subjects.allSatisfy { $0.hasPrefix("org.example.") }, "no alert for a revoked or expired token: \(subjects)")
            // The team allows 72 hours now: at the next evaluation the phone's alert resolves because its condition cleared.
            #expect(try await server.send("PUT", "/v1/care-teams/physio/alert-rules", token: server.tokens.therapist,
                                          json: ["rules": ["deviceSilent": ["hours": 72]]]).status == 200)
            clock.advance(by: 0.1 * 3600)
            let cleared = try #require(try job.runAll())
            #expect(cleared.map(\.kind) == [.resolved] && cleared.first?.alertID == later.first?.alertID)
            let resolved = try await server.send("GET", "/v1/patients/alice/alerts?state=resolved", token: server.tokens.therapist)
            #expect(resolved.json["alerts"]?[0]?["resolution"] == "conditionCleared" && resolved.json["alerts"]?[0]?["resolvedBy"] == .null)
        }
    }

    @Test func acknowledgedAndResolvedByATherapistAuditedAndCountedInAttention() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            try Self.addSilentDevices(server)
            let job = server.app.makeAlertJob(clock: ManualClock())
            _ = try job.runAll()
            let before = try await server.send("GET", "/v1/patients/alice/status", token: t.therapist)
            // alice's three working device tokens never wrote: three open deviceSilent alerts, 50 each (her revoked and
            // expired fixture tokens raise none: nothing is expected of them).
            #expect(before.json["attention"]?["openAlerts"]?.integerValue == 3, "\(before.text)")
            let ids = (before.json["alerts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            try #require(ids.count == 3)
            let score = try #require(before.json["attention"]?["score"]?.integerValue)
            let path = "/v1/patients/alice/alerts/"
            let acknowledged = try await server.send("POST", path + ids[0] + "/acknowledge", token: t.therapist)
            #expect(acknowledged.status == 200 && acknowledged.json["state"] == "acknowledged", "\(acknowledged.text)")
            let resolved = try await server.send("POST", path + ids[1] + "/resolve", token: t.therapist)
            #expect(resolved.json["state"] == "resolved" && resolved.json["resolution"] == "therapist")
            try await server.send("POST", path + ids[1] + "/resolve", token: t.therapist).expectProblem(409, "conflict")
            try await server.send("POST", path + ids[1] + "/acknowledge", token: t.therapist).expectProblem(409, "conflict")
            let after = try await server.send("GET", "/v1/patients/alice/status", token: t.therapist)
            #expect(after.json["attention"]?["openAlerts"]?.integerValue == 1 && after.json["alerts"]?.arrayValue?.count == 2)
            #expect(after.json["attention"]?["score"]?.integerValue == score - 100)
            let team = try await server.send("GET", "/v1/care-teams/physio/status", token: t.therapist)
            #expect(team.json["patients"]?[0]?["attention"]?["openAlerts"]?.integerValue == 1)
            // The team's answer lists each patient's unresolved alerts as the patient's own status does, in its order.
            let teamAlice = team.json["patients"]?.arrayValue?.first { $0["patient"] == "alice" }
            #expect(teamAlice?["alerts"]?.arrayValue?.count == 2 && teamAlice?["alerts"] == after.json["alerts"], "\(team.text)")
            // Not raised again while unresolved, nor after a therapist resolved it while its condition holds.
            #expect(try job.runAll()?.isEmpty == true)
            // Who may: a device 403, another team's therapist 404 (no reach), an unknown alert or another patient's 404.
            try await server.send("POST", path + ids[2] + "/resolve", token: t.aliceDevice).expectProblem(403, "forbidden")
            try await server.send("POST", path + ids[2] + "/resolve", token: t.otherTherapist).expectProblem(404, "notFound")
            try await server.send("POST", path + "alert_none/resolve", token: t.therapist).expectProblem(404, "notFound")
            let bobs = try server.app.backend.alerts.alerts(AlertQuery(patient: "bob"))
            try await server.send("POST", "/v1/patients/alice/alerts/\(bobs[0].id)/resolve", token: t.therapist).expectProblem(404, "notFound")
            try await server.send("GET", "/v1/care-teams/physio/alerts?state=closed", token: t.therapist).expectProblem(422, "validationFailed")
            try await server.send("GET", "/v1/care-teams/physio/alerts", token: t.otherTherapist).expectProblem(404, "notFound")
            let list = try await server.send("GET", "/v1/care-teams/physio/alerts", token: t.therapist)
            #expect(list.json["alerts"]?.arrayValue?.map { $0["state"]?.stringValue ?? "" }.sorted() == ["acknowledged", "open", "resolved"])
            let audit = try server.app.api.access.audit(AuditQuery(patient: "alice", limit: 100))
            #expect(audit.contains { $0.action == "alerts.acknowledge" && $0.status == 200 && $0.count == 1 })
            #expect(audit.filter { $0.action == "alerts.resolve" }.map(\.status).sorted() == [200, 403, 404, 404, 404, 409])
            #expect(audit.contains { $0.action == "alerts.read" })
        }
    }

    @Test func aCommitMarksItsPatientForTheNextEvaluation() async throws {
        try await TestServer.with(.inMemory) { server in
            try Self.addSilentDevices(server)
            let job = server.app.alertJob
            #expect(job.pendingPatients.isEmpty)
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                          json: ["samples": [Self.steps(10, at: Date())]]).status == 200)
            #expect(job.pendingPatients == ["alice"])
            let events = try #require(try job.runChanged())
            #expect(!events.isEmpty && events.allSatisfy { $0.patient == "alice" }, "only the changed patient is evaluated")
            #expect(job.pendingPatients.isEmpty)
            #expect(try server.app.backend.alerts.alerts(AlertQuery(patient: "bob")).isEmpty)
        }
    }

    @Test func webhookPayloadsNameTheAlertAndCarryNoValue() async throws {
        try await TestServer.with(.inMemory, configure: { $0.webhooks.allowPrivateAddresses = true }) { server in
            let created = try await server.send("POST", "/v1/webhooks", token: server.tokens.admin,
                                                json: ["url": "http://127.0.0.1:9/hook", "events": ["alert.raised", "alert.resolved"]])
            #expect(created.status == 201, "\(created.text)")
            let clock = ManualClock()
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                          json: ["samples": [Self.steps(7345.25, at: clock.now())]]).status == 200)
            let job = server.app.makeAlertJob(clock: clock)
            clock.advance(by: 49 * 3600)
            let raised = try #require(try job.runAll())
            let webhooks = server.app.backend.webhooks
            _ = try webhooks.fanOut(limit: 100, maxPending: 100, now: clock.now())
            let head = try #require(try webhooks.heads().first)
            let body = try JSONValue.parse(WebhookWire.event(head))
            #expect(body["type"] == "alert.raised")
            #expect(Set(body["data"]?.objectValue?.keys.map { $0 } ?? []) == ["patient", "alertId", "rule", "careTeam", "sequence"])
            #expect(raised.map(\.alertID).contains(body["data"]?["alertId"]?.stringValue ?? ""))
            #expect(body["data"]?["rule"] == "deviceSilent" && body["timestamp"]?.stringValue == RFC3339.format(clock.now()))
            #expect(!String(decoding: WebhookWire.event(head), as: UTF8.self).contains("7345.25"))
            let changed = try await server.send("POST", "/v1/webhooks", token: server.tokens.admin, json: ["url": "http://127.0.0.1:9/x", "events": ["alert.moved"]])
            changed.expectProblem(422, "validationFailed")
        }
    }
}
