import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// The OpenAPI document's request schemas say what the server takes: for every request body, one with only the
/// fields the document requires is accepted, and one missing any of them is refused naming that field. A field
/// the document calls "Required, except …" in its description counts as required for the case chosen here, and a
/// schema with `minProperties` needs that many of its optional fields.
@Suite struct RequiredFieldsTests {
    /// One request body schema: where it is posted, with whose token, and the values of exactly its required fields.
    struct Case: Sendable, CustomStringConvertible {
        var schema: String
        var path: String
        var admin: Bool
        var required: [String: JSONValue]
        /// An array field whose item schema is checked the same way, with the values of the item's required fields.
        var items: (field: String, schema: String, required: [String: JSONValue])?
        var description: String { schema }
    }

    static let night: [String: JSONValue] = [
        "type": "sleepAnalysis", "value": 0, "start": "2020-06-16T01:00:00Z", "end": "2020-06-16T02:00:00Z",
    ]

    static let cases: [Case] = [
        Case(schema: "SampleUpload", path: "/v1/patients/alice/samples", admin: false, required: ["samples": [.object(night)]],
             items: ("samples", "SampleDraft", night)),
        Case(schema: "WeeklyReportDraft", path: "/v1/patients/alice/weekly-reports", admin: false,
             required: ["syncIdentifier": "report-2020-W25", "syncVersion": 1, "weekStart": "2020-06-15", "timeZone": "UTC",
                        "samples": [.object(night.merging(["key": "2020-06-16"]) { a, _ in a })]],
             items: ("samples", "WeeklyReportSampleDraft", night.merging(["key": "2020-06-16"]) { a, _ in a })),
        Case(schema: "PatientDraft", path: "/v1/patients", admin: true, required: ["id": "carol"]),
        Case(schema: "CareTeamDraft", path: "/v1/care-teams", admin: true, required: ["name": "ortho"]),
        Case(schema: "CareTeamMembership", path: "/v1/care-teams/physio/patients", admin: true, required: ["patientId": "bob"]),
        Case(schema: "TokenDraft", path: "/v1/tokens", admin: true, required: ["role": "admin"]),
        Case(schema: "InvitationDraft", path: "/v1/people/invitations", admin: true, required: ["role": "admin"]),
        Case(schema: "WebhookDraft", path: "/v1/webhooks", admin: true, required: ["url": "https://93.184.216.34/hook"]),
    ]

    let doc: JSONValue
    init() throws { doc = try JSONValue.parse(OpenAPIDocument.bytes) }

    /// The fields a schema requires: its `required` list and those whose description starts "Required".
    func required(_ schema: String) -> Set<String> {
        let node = doc["components"]?["schemas"]?[schema]
        var names = Set((node?["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for (name, property) in node?["properties"]?.objectValue ?? [:]
        where property["description"]?.stringValue?.hasPrefix("Required, except") == true { names.insert(name) }
        return names
    }

    @Test func everyRequestSchemaIsCovered() {
        var posted = Set<String>()
        for item in (doc["paths"]?.objectValue ?? [:]).values {
            for operation in (item.objectValue ?? [:]).values {
                if let ref = operation["requestBody"]?["content"]?["application/json"]?["schema"]?["$ref"]?.stringValue {
                    posted.insert(String(ref.split(separator: "/").last!))
                }
            }
        }
        // AlertRulesDraft is PUT: AlertRulesEndpointTests checks its one required field (`rules`). PatientUpdate (PATCH)
        // requires no member: PatientUpdateTests checks what it refuses. PersonIdentityDraft needs a person and an issuer:
        // OpenIDConnectFlowTests. PasskeyRegistration and PasskeyAssertion need a live ceremony: PasskeyEndpointTests.
        let covered = Set(Self.cases.map(\.schema)).union(["DeletionRequest", "WebhookReplay", "AlertRulesDraft", "EnrolmentRedemption",
                                                            "InvitationRedemption", "PatientUpdate", "PersonIdentityDraft",
                                                            "PasskeyRegistration", "PasskeyAssertion"])
        #expect(posted == covered)
    }

    @Test(arguments: cases)
    func onlyTheRequiredFieldsAreEnoughAndEachIsNeeded(_ c: Case) async throws {
        #expect(Set(c.required.keys) == required(c.schema))
        if let items = c.items { #expect(Set(items.required.keys) == required(items.schema)) }
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let token = c.admin ? server.tokens.admin : server.tokens.therapist
            let accepted = try await server.send("POST", c.path, token: token, json: .object(c.required))
            #expect((200..<300).contains(accepted.status), "\(c.schema): \(accepted.text)")
            for field in c.required.keys.sorted() {
                var body = c.required
                body[field] = nil
                try await expectRefused(server, c.path, token: token, body: body, field: field, index: nil, c.schema)
            }
            guard let items = c.items else { return }
            for field in items.required.keys.sorted() {
                var item = items.required
                item[field] = nil
                var body = c.required
                body[items.field] = [.object(item)]
                if c.schema == "WeeklyReportDraft" { body["syncVersion"] = 2 }
                try await expectRefused(server, c.path, token: token, body: body, field: field, index: 0, "\(items.schema)")
            }
        }
    }

    func expectRefused(_ server: TestServer, _ path: String, token: String, body: [String: JSONValue], field: String,
                       index: Int?, _ schema: String) async throws {
        let refused = try await server.send("POST", path, token: token, json: .object(body))
        #expect(refused.status == 422, "\(schema) without \(field): \(refused.status) \(refused.text)")
        let errors = refused.json["errors"]?.arrayValue ?? []
        #expect(errors.contains { $0["field"]?.stringValue == field && $0["index"]?.numberValue.map { Int($0) } == index },
                "\(schema) without \(field): \(refused.text)")
    }

    @Test func aDeletionNeedsUuidsOrSyncIdentifiersAndAReplayItsSequence() async throws {
        let deletion = doc["components"]?["schemas"]?["DeletionRequest"]
        #expect(required("DeletionRequest").isEmpty && deletion?["minProperties"] == 1)
        #expect(required("WebhookReplay") == ["fromSequence"])
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let path = "/v1/patients/alice/samples/delete"
            let none = try await server.send("POST", path, token: server.tokens.therapist, json: [:])
            #expect(none.status == 422, "\(none.text)")
            let empties: [JSONValue] = [.object(["uuids": .array([])]), .object(["syncIdentifiers": .array([])])]
            for body in empties {
                let reply = try await server.send("POST", path, token: server.tokens.therapist, json: body)
                #expect(reply.status == 200, "\(body): \(reply.text)")
            }
            let created = try await server.send("POST", "/v1/webhooks", token: server.tokens.admin, json: ["url": "https://93.184.216.34/hook"])
            let id = try #require(created.json["id"]?.stringValue)
            // A new subscription keeps no delivery yet: the body is whole, and the refusal says what is missing instead.
            let replay = try await server.send("POST", "/v1/webhooks/\(id)/replay", token: server.tokens.admin, json: ["fromSequence": 1])
            #expect(replay.status == 422 && replay.json["detail"] == "no kept delivery 1: this subscription keeps none", "\(replay.text)")
            let missing = try await server.send("POST", "/v1/webhooks/\(id)/replay", token: server.tokens.admin, json: [:])
            #expect(missing.status == 422 && missing.json["errors"]?.arrayValue?.first?["field"] == "fromSequence", "\(missing.text)")
        }
    }
}
