import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The admin API of webhook subscriptions: the secret once, 422s, 404s, admins only, every action audited.
@Suite struct WebhookEndpointTests {
    static let url = "https://93.184.216.34/caresync-hook"

    func create(_ server: TestServer, _ body: JSONValue) async throws -> TestReply {
        try await server.send("POST", "/v1/webhooks", token: server.tokens.admin, json: body)
    }

    @Test func theSecretIsShownOnceAndTheStateListed() async throws {
        try await TestServer.with(.inMemory) { server in
            let created = try await create(server, ["url": .string(Self.url), "patients": ["alice", "alice"] as JSONValue, "careTeams": ["cardio"] as JSONValue])
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.json["id"]?.stringValue)
            let secret = try #require(created.json["secret"]?.stringValue)
            #expect(id.hasPrefix("wh_") && secret.hasPrefix("whsec_"))
            #expect(WebhookSignature.key(of: secret)?.count == 32)
            #expect(created.json["patients"] == ["alice"] && created.json["careTeams"] == ["cardio"])
            #expect(created.json["events"] == ["patient.changed"] && created.json["url"] == .string(Self.url))
            #expect(created.json["nextSequence"] == 1 && created.json["lastDeliveredSequence"] == 0)
            #expect(created.json["paused"] == false && created.json["failingSince"] == .null && created.json["pendingDeliveries"] == 0)

            let one = try await server.send("GET", "/v1/webhooks/\(id)", token: server.tokens.admin)
            let list = try await server.send("GET", "/v1/webhooks", token: server.tokens.admin)
            #expect(one.status == 200 && list.status == 200)
            #expect(one.json["id"] == .string(id) && list.json["webhooks"]?.arrayValue?.map { $0["id"] } == [.string(id)])
            for reply in [one, list] { #expect(!reply.text.contains(secret) && !reply.text.contains("secret"), "\(reply.text)") }

            let paused = try await server.send("POST", "/v1/webhooks/\(id)/pause", token: server.tokens.admin)
            #expect(paused.status == 200 && paused.json["paused"] == true)
            let resumed = try await server.send("POST", "/v1/webhooks/\(id)/resume", token: server.tokens.admin)
            #expect(resumed.status == 200 && resumed.json["paused"] == false)
            let deleted = try await server.send("DELETE", "/v1/webhooks/\(id)", token: server.tokens.admin)
            #expect(deleted.status == 200 && deleted.json == ["id": .string(id), "deleted": true])
            #expect(try await server.send("GET", "/v1/webhooks/\(id)", token: server.tokens.admin).status == 404)

            let actions = try server.app.api.access.audit(AuditQuery(tokenID: nil)).map { "\($0.action) \($0.status)" }
            #expect(Array(actions.reversed().suffix(7)) == [
                "admin.webhook.create 201", "admin.webhook.read 200", "admin.webhook.list 200", "admin.webhook.pause 200",
                "admin.webhook.resume 200", "admin.webhook.delete 200", "admin.webhook.read 404",
            ])
        }
    }

    /// A body that is refused names the field, and nothing is stored.
    @Test(arguments: [
        (#"{"patients": ["alice"]}"#, "url"),
        (#"{"url": 7}"#, "url"),
        (#"{"url": "ftp://93.184.216.34/hook"}"#, "url"),
        (#"{"url": "http://127.0.0.1:9000/hook"}"#, "url"),
        (#"{"url": "http://[::1]/hook"}"#, "url"),
        (#"{"url": "http://localhost/hook"}"#, "url"),
        (#"{"url": "https://192.168.10.1/hook"}"#, "url"),
        (#"{"url": "https://93.184.216.34/hook", "patients": ["nobody"]}"#, "patients"),
        (#"{"url": "https://93.184.216.34/hook", "patients": "alice"}"#, "patients"),
        (#"{"url": "https://93.184.216.34/hook", "careTeams": ["nowhere"]}"#, "careTeams"),
        (#"{"url": "https://93.184.216.34/hook", "events": ["patient.deleted"]}"#, "events"),
        (#"{"url": "https://93.184.216.34/hook", "events": []}"#, "events"),
    ])
    func aBadSubscriptionIs422NamingTheField(body: String, field: String) async throws {
        try await TestServer.with(.inMemory) { server in
            let reply = try await server.send("POST", "/v1/webhooks", token: server.tokens.admin, body: Array(body.utf8),
                                              headers: [("Content-Type", "application/json")])
            reply.expectProblem(422, "validationFailed")
            #expect(reply.json["errors"]?.arrayValue?.contains { $0["field"]?.stringValue == field } == true, "\(reply.json)")
            #expect(try server.app.api.webhooks.subscriptions().isEmpty)
        }
    }

    @Test func theOperatorMayAllowPrivateAddresses() async throws {
        try await TestServer.with(.inMemory, configure: { $0.webhooks.allowPrivateAddresses = true }) { server in
            let reply = try await create(server, ["url": "http://127.0.0.1:9000/hook"])
            #expect(reply.status == 201, "\(reply.text)")
        }
    }

    @Test func anUnknownSubscriptionIs404AndAReplayOutsideTheKeptRangeIs422() async throws {
        try await TestServer.with(.inMemory) { server in
            let admin = server.tokens.admin
            for (method, path) in [("GET", "/v1/webhooks/wh_none"), ("DELETE", "/v1/webhooks/wh_none"),
                                   ("POST", "/v1/webhooks/wh_none/pause"), ("POST", "/v1/webhooks/wh_none/resume")] {
                (try await server.send(method, path, token: admin)).expectProblem(404, "notFound")
            }
            (try await server.send("POST", "/v1/webhooks/wh_none/replay", token: admin, json: ["fromSequence": 1])).expectProblem(404, "notFound")
            let id = try #require(try await create(server, ["url": JSONValue.string(Self.url)]).json["id"]?.stringValue)
            for body: JSONValue in [["fromSequence": 1], ["fromSequence": 0], ["fromSequence": 1.5], ["fromSequence": "1"], [:]] {
                let reply = try await server.send("POST", "/v1/webhooks/\(id)/replay", token: admin, json: body)
                reply.expectProblem(422, "validationFailed")
                #expect(reply.json["errors"]?[0]?["field"] == "fromSequence", "\(body)")
            }
        }
    }

    /// Only admins: every other token is 403, no token 401.
    @Test func onlyAdminsManageWebhooks() async throws {
        try await TestServer.with(.inMemory) { server in
            let id = try #require(try await create(server, ["url": JSONValue.string(Self.url)]).json["id"]?.stringValue)
            let requests: [(String, String, JSONValue?)] = [
                ("POST", "/v1/webhooks", ["url": JSONValue.string(Self.url)]), ("GET", "/v1/webhooks", nil), ("GET", "/v1/webhooks/\(id)", nil),
                ("POST", "/v1/webhooks/\(id)/pause", nil), ("POST", "/v1/webhooks/\(id)/resume", nil),
                ("POST", "/v1/webhooks/\(id)/replay", ["fromSequence": 1]), ("DELETE", "/v1/webhooks/\(id)", nil),
            ]
            let t = server.tokens
            for (method, path, body) in requests {
                for token in [t.therapist, t.aliceDevice, t.narrow] {
                    (try await server.send(method, path, token: token, json: body)).expectProblem(403, "forbidden")
                }
                (try await server.send(method, path, json: body)).expectProblem(401, "unauthorized")
            }
            #expect(try server.app.api.webhooks.subscriptions().map(\.subscription.id) == [id])
            #expect(try server.app.api.webhooks.subscription(id: id)?.paused == false)
        }
    }
}
