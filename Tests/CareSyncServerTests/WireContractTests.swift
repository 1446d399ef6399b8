import CareSyncTestSupport
import CareSyncHTTP
import Foundation
import Testing
@testable import CareSyncServer

/// The v1.1 wire rules a generated client relies on: one instant form, strict JSON, one problem shape.
@Suite struct WireContractTests {
    /// Every instant in a JSON value (by field name), wherever it is nested.
    static func instants(in value: JSONValue, names: Set<String> = ["start", "end", "deletedAt", "updatedAt", "createdAt", "time"]) -> [String] {
        switch value {
        case .object(let members):
            return members.flatMap { key, member in
                (names.contains(key) ? member.stringValue.map { [$0] } ?? [] : []) + instants(in: member, names: names)
            }
        case .array(let items): return items.flatMap { instants(in: $0, names: names) }
        default: return []
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` and nothing else.
    static func hasThreeDigitForm(_ text: String) -> Bool {
        let shape = Array("dddd-dd-ddTdd:dd:dd.dddZ")
        let chars = Array(text)
        return chars.count == shape.count && zip(chars, shape).allSatisfy { c, s in s == "d" ? c.isASCII && c.isNumber : c == s }
    }

    @Test func everyInstantTheServerWritesHasExactlyThreeFractionalDigits() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            #expect(try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                          json: Fixtures.report(version: 1, tests: [("2020-06-16", 380), ("2020-06-18", 400)])).status == 200)
            let v2 = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                           json: Fixtures.report(version: 2, tests: [("2020-06-16", 380), ("2020-06-18", 450)]))
            #expect(v2.status == 200)
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                          json: ["samples": [Fixtures.steps(10, id: "s1", version: 1)]]).status == 200)
            let answers = [
                try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice),
                try await server.send("GET", "/v1/patients/alice/weekly-reports/report-2020-W25", token: t.therapist),
                try await server.send("GET", "/v1/patients/alice/statistics?type=stepCount&start=2020-06-18T00:00:00Z&end=2020-06-19T00:00:00Z&interval=day&options=cumulativeSum",
                                      token: t.aliceDevice),
                try await server.send("GET", "/v1/tokens", token: t.admin),
                try await server.send("GET", "/v1/patients", token: t.admin),
                try await server.send("GET", "/v1/audit?limit=5", token: t.admin),
                v2,
            ]
            var seen = 0
            for answer in answers {
                #expect(answer.status == 200)
                for instant in Self.instants(in: answer.json) {
                    seen += 1
                    #expect(Self.hasThreeDigitForm(instant), "\(instant)")
                }
            }
            // The feed carries a tombstone (deletedAt) and samples sent without fractions ("…00Z").
            #expect(answers[0].json["deletedObjects"]?.arrayValue?.count == 1)
            #expect(seen >= 20)
        }
    }

    @Test(arguments: [
        #"{"samples": [{"type": "stepCount", "value": 5, "unit": "count", "start": "2020-06-18T09:00:00Z", "end": "2020-06-18T09:30:00Z"}], "samples": []}"#,
        #"{"samples": [{"type": "stepCount", "value": 5, "value": 19, "unit": "count", "start": "2020-06-18T09:00:00Z", "end": "2020-06-18T09:30:00Z"}]}"#,
        #"{"samples": [{"type": "stepCount", "value": 5, "unit": "count", "start": "2020-06-18T09:00:00Z", "end": "2020-06-18T09:30:00Z", "metadata": {"a": 1, "a": 2}}]}"#,
    ])
    func aDuplicateKeyAnywhereIsInvalidJSONAndNothingIsStored(body: String) async throws {
        try await TestServer.with { server in
            let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice, body: Array(body.utf8),
                                              headers: [("Content-Type", "application/json")])
            #expect(reply.status == 400)
            reply.expectProblem(400, "invalidJSON")
            let repeated = body.contains(#""value": 19"#) ? "value" : body.contains(#""a": 2"#) ? "a" : "samples"
            #expect(reply.json["detail"]?.stringValue?.contains("\"\(repeated)\"") == true, "\(reply.json)")
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            #expect(feed.json["samples"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func aGzipBodyThatDoesNotInflateIsInvalidJSON() async throws {
        try await TestServer.with { server in
            let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                              body: [0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02, 0x03],
                                              headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
            #expect(reply.status == 400)
            reply.expectProblem(400, "invalidJSON")
        }
    }

    @Test func aRouterRefusalAndAHandlerRefusalHaveTheSameShape() async throws {
        try await TestServer.with { server in
            let router = try await server.send("GET", "/v1/nothing-here", token: server.tokens.aliceDevice)
            let handler = try await server.send("GET", "/v1/patients/bob/changes", token: server.tokens.aliceDevice)
            for reply in [router, handler] {
                #expect(reply.status == 404)
                #expect(reply.json["type"] == "https://caresync.example/problems/notFound")
                #expect(reply.json["title"] == "Not found")
                #expect(reply.json["errors"] == .array([]))
            #expect(reply.headers.first { $0.0.lowercased() == "cache-control" }?.1 == "no-store")
                #expect(reply.json.objectValue.map { Set($0.keys) } == ["type", "title", "status", "detail", "code", "errors"])
            }
        }
    }
}

/// Every answer names its request.
@Suite struct RequestIDTests {
    @Test func everyAnswerCarriesTheRequestIDTheClientSentOrOneTheServerMade() async throws {
        try await TestServer.with { server in
            func id(_ reply: TestReply) -> String? { reply.headers.first { $0.0.lowercased() == "x-request-id" }?.1 }
            let echoed = try await server.send("GET", "/v1/patients/alice/changes", token: "bad", headers: [("X-Request-ID", "abc-123")])
            #expect(echoed.status == 401)
            #expect(id(echoed) == "abc-123")
            let made = try await server.send("GET", "/healthz")
            #expect(id(made)?.isEmpty == false)
            // An id with a space is not adopted; the server makes its own.
            let refused = try await server.send("GET", "/healthz", headers: [("X-Request-ID", "a b")])
            #expect(id(refused) != "a b" && id(refused)?.isEmpty == false)
        }
    }
}

/// Admin bodies with a field of the wrong JSON type are refused, not silently read as "absent".
@Suite struct AdminInputTests {
    @Test(arguments: [
        ("/v1/patients", #"{"id": "carol", "timeZone": 5}"#, "timeZone"),
        ("/v1/tokens", #"{"role": "device", "patient": "alice", "expiresInDays": "30"}"#, "expiresInDays"),
        ("/v1/tokens", #"{"role": "device", "patient": 7}"#, "patient"),
    ])
    func aFieldOfTheWrongTypeIs422NamingIt(path: String, body: String, field: String) async throws {
        try await TestServer.with { server in
            let reply = try await server.send("POST", path, token: server.tokens.admin, body: Array(body.utf8),
                                              headers: [("Content-Type", "application/json")])
            #expect(reply.status == 422)
            reply.expectProblem(422, "validationFailed")
            #expect(reply.json["errors"]?.arrayValue?.contains { $0["field"]?.stringValue == field } == true, "\(reply.json)")
            // Nothing was created.
            let patients = try await server.send("GET", "/v1/patients", token: server.tokens.admin)
            #expect(patients.json["patients"]?.arrayValue?.count == 2)
            let tokens = try await server.send("GET", "/v1/tokens", token: server.tokens.admin)
            #expect(tokens.json["tokens"]?.arrayValue?.count == 8)
        }
    }
}

/// The API's code vocabulary: every code has a fixed title, and the HTTP layer's codes are part of it.
@Suite struct ProblemCodeTests {
    @Test func everyCodeTheServerSendsHasItsOwnTitleAndTheHTTPLayersCodesAreIncluded() {
        #expect(ProblemCode.all.allSatisfy { $0.title?.isEmpty == false })
        #expect(Set(ProblemCode.all.map(\.rawValue)).count == ProblemCode.all.count)
        #expect(Set(ProblemCode.httpLayer).isSubset(of: Set(ProblemCode.all)))
        #expect(HTTPError.invalidAnchor.title == "Invalid anchor")
    }
}

/// List parameters as `explode: false` clients send them (`a,b`) and as exploding clients do (`a&…=b`).
@Suite struct ListParameterTests {
    @Test func aRepeatedListParameterCountsEveryItem() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let heart: JSONValue = ["type": "heartRate", "value": 70, "unit": "count/min",
                                    "start": "2020-06-18T09:00:00Z", "end": "2020-06-18T09:00:00Z"]
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                          json: ["samples": [Fixtures.steps(5), heart]]).status == 200)
            for query in ["types=stepCount,heartRate", "types=stepCount&types=heartRate"] {
                let page = try await server.send("GET", "/v1/patients/alice/changes?\(query)", token: t.aliceDevice)
                #expect(page.json["samples"]?.arrayValue?.count == 2, "\(query)")
            }
            let stats = try await server.send("GET", "/v1/patients/alice/statistics?type=stepCount&start=2020-06-18T00:00:00Z"
                + "&end=2020-06-19T00:00:00Z&interval=day&options=cumulativeSum&options=separateBySource", token: t.aliceDevice)
            #expect(stats.status == 200)
            #expect(stats.json["buckets"]?[0]?["sources"]?.arrayValue?.count == 1, "\(stats.json)")
        }
    }
}

/// Which answer an `Accept` field gets from the feed: an event stream only when it prefers one.
@Suite struct FeedNegotiationTests {
    @Test(arguments: [
        ("text/event-stream", true),
        ("text/event-stream, application/json;q=0.5", true),
        ("application/json, text/event-stream", false),  // what a generated client sends: both equally
        ("text/event-stream;q=0.5, */*", false),
        ("*/*", false),
        ("application/json", false),
    ])
    func anEventStreamOnlyWhenTheClientPrefersOne(accept: String, streams: Bool) {
        let request = Request(method: .get, target: "/v1/patients/alice/changes", headers: [.accept: accept])
        #expect(FeedController.wantsEventStream(request) == streams)
    }
}

/// Deleting a type needs the right to write it, as in HealthKit.
@Suite struct DeleteWriteTypeTests {
    @Test func aTokenThatMayNotWriteATypeMayNotDeleteItAndNothingIsDeleted() async throws {
        try await TestServer.with { server in
            // A broad token and the narrow one share a source, so the narrow one owns what the broad one wrote.
            let broad = try server.app.api.admin.createToken(
                TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.narrow"), now: Date()).secret
            let walk = Fixtures.walkTest(day: "2020-06-18", meters: 400)
            guard case .object(var walkSample) = walk else { return }
            walkSample["key"] = nil
            let posted = try await server.send("POST", "/v1/patients/alice/samples", token: broad,
                                               json: ["samples": [Fixtures.steps(10, id: "s", version: 1), .object(walkSample)]])
            #expect(posted.status == 200)
            let steps = try #require(posted.json["results"]?[0]?["uuid"]?.stringValue)
            let refused = try await server.send("POST", "/v1/patients/alice/samples/delete", token: server.tokens.narrow,
                                                json: ["uuids": [.string(steps)], "syncIdentifiers": ["s"]])
            #expect(refused.status == 403)
            refused.expectProblem(403, "forbidden")
            #expect(refused.json["errors"]?.arrayValue?.map { "\($0["field"]?.stringValue ?? "")[\($0["index"]?.numberValue ?? -1)]" }
                    == ["uuids[0.0]"])
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: broad)
            #expect(feed.json["samples"]?.arrayValue?.count == 2)
            #expect(feed.json["deletedObjects"]?.arrayValue?.isEmpty == true)
            // A type it may write, it may delete.
            let walkUUID = try #require(posted.json["results"]?[1]?["uuid"]?.stringValue)
            let deleted = try await server.send("POST", "/v1/patients/alice/samples/delete", token: server.tokens.narrow,
                                                json: ["uuids": [.string(walkUUID)]])
            #expect(deleted.status == 200)
            #expect(deleted.json["results"]?[0]?["outcome"]?.stringValue == "deleted")
        }
    }
}
