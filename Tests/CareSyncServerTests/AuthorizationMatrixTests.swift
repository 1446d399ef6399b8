import Foundation
import Testing
@testable import CareSyncServer

/// Every patient-scoped endpoint × every kind of caller → the status api.md promises, and never
/// another patient's data in a body.
@Suite(.serialized) struct AuthorizationMatrixTests {
    /// A patient-scoped endpoint and a valid request to it (for alice).
    struct Endpoint: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        var body: JSONValue?
        var description: String { "\(method) \(path)" }
    }

    static let endpoints: [Endpoint] = [
        Endpoint(method: "POST", path: "/v1/patients/alice/samples", body: ["samples": [Fixtures.walkTestSample(420)]]),
        Endpoint(method: "POST", path: "/v1/patients/alice/samples/delete", body: ["syncIdentifiers": ["nothing"]]),
        Endpoint(method: "GET", path: "/v1/patients/alice/changes"),
        Endpoint(method: "POST", path: "/v1/patients/alice/weekly-reports", body: Fixtures.report(version: 5, tests: [("2020-06-18", 400)], id: "matrix")),
        Endpoint(method: "GET", path: "/v1/patients/alice/weekly-reports"),
        Endpoint(method: "GET", path: "/v1/patients/alice/weekly-reports/report-2020-W25"),
        Endpoint(method: "DELETE", path: "/v1/patients/alice/weekly-reports/report-2020-W25"),
        Endpoint(method: "GET", path: "/v1/patients/alice/statistics?type=sixMinuteWalkTestDistance&start=2020-06-15T00:00:00Z&end=2020-06-22T00:00:00Z&interval=day&options=discreteAverage"),
    ]

    enum Caller: String, CaseIterable, Sendable {
        case none, malformed, expired, revoked, otherPatientDevice, therapistOutsideTeam, admin, therapist
    }

    static func expected(_ caller: Caller) -> Int? {
        switch caller {
        case .none, .malformed, .expired, .revoked: 401
        case .otherPatientDevice, .therapistOutsideTeam, .admin: 404
        case .therapist: nil
        }
    }

    @Test(arguments: endpoints)
    func everyCallerGetsItsStatus(endpoint: Endpoint) async throws {
        // In memory: the same pipeline as a socket, without one (the matrix is many requests).
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            // Bob's data, which must never show in any answer about alice.
            let bobWrite = try await server.send("POST", "/v1/patients/bob/samples", token: t.bobDevice,
                                                 json: ["samples": [Fixtures.steps(4242, id: "BOB-SECRET", version: 1)]])
            #expect(bobWrite.status == 200)
            let bobUUID = try #require(bobWrite.json["results"]?[0]?["uuid"]?.stringValue)
            let setup = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                              json: Fixtures.report(version: 1, tests: [("2020-06-18", 400)]))
            #expect(setup.status == 200)

            for caller in Caller.allCases {
                let token: String? = switch caller {
                case .none: nil
                case .malformed: "not-a-token"
                case .expired: t.expired
                case .revoked: t.revoked
                case .otherPatientDevice: t.bobDevice
                case .therapistOutsideTeam: t.otherTherapist
                case .admin: t.admin
                case .therapist: t.therapist
                }
                let reply = try await server.send(endpoint.method, endpoint.path, token: token, json: endpoint.body)
                if let status = Self.expected(caller) {
                    #expect(reply.status == status, "\(endpoint) as \(caller.rawValue): \(reply.text)")
                    if status == 401 { #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true) }
                    #expect(reply.header("Content-Type") == "application/problem+json")
                } else {
                    #expect(reply.status == 200, "\(endpoint) as \(caller.rawValue): \(reply.text)")
                }
                #expect(!reply.text.contains("BOB-SECRET") && !reply.text.contains(bobUUID) && !reply.text.contains("4242"),
                        "\(endpoint) as \(caller.rawValue) leaked bob's data")
            }
        }
    }

    @Test func unreadableTypesAreLeftOutSilently() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                      json: ["samples": [Fixtures.steps(1000), Fixtures.walkTestSample(410)]])
            let narrow = try await server.send("GET", "/v1/patients/alice/changes", token: t.narrow)
            #expect(narrow.status == 200)
            #expect(narrow.json["samples"]?.arrayValue?.map { $0["type"] } == ["sixMinuteWalkTestDistance"])
            let asked = try await server.send("GET", "/v1/patients/alice/changes?types=stepCount", token: t.narrow)
            #expect(asked.status == 200)
            #expect(asked.json["samples"]?.arrayValue?.isEmpty == true)
            let full = try await server.send("GET", "/v1/patients/alice/changes", token: t.therapist)
            #expect(full.json["samples"]?.arrayValue?.count == 2)
        }
    }

    @Test func aWriteOfAnUnwritableTypeIsForbiddenAndStoresNothing() async throws {
        try await TestServer.with { server in
            let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.narrow,
                                              json: ["samples": [Fixtures.walkTestSample(400), Fixtures.steps(10)]])
            #expect(reply.status == 403)
            reply.expectProblem(403, "forbidden")
            #expect(reply.json["errors"]?[0]?["index"] == 1)
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist)
            #expect(feed.json["samples"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func auditRecordsEveryPatientRequestForAdmins() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Fixtures.steps(1), Fixtures.steps(2, hour: 10)]])
            _ = try await server.send("GET", "/v1/patients/alice/changes", token: t.bobDevice)
            let audit = try await server.send("GET", "/v1/audit?patient=alice", token: t.admin)
            #expect(audit.status == 200)
            let records = audit.json["records"]?.arrayValue ?? []
            #expect(records.count == 2)
            #expect(records[0]["action"] == "changes.read" && records[0]["status"] == 404 && records[0]["role"] == "device")
            #expect(records[1]["action"] == "samples.upsert" && records[1]["status"] == 200 && records[1]["count"] == 2)
            #expect(!audit.text.contains("\"value\""))
            let denied = try await server.send("GET", "/v1/audit", token: t.therapist)
            #expect(denied.status == 403)
        }
    }
}

extension Fixtures {
    /// A six-minute walk test sample posted directly (not in a report).
    static func walkTestSample(_ meters: Double) -> JSONValue {
        ["type": "sixMinuteWalkTestDistance", "value": .number(meters), "unit": "m",
         "start": "2020-06-18T17:00:00Z", "end": "2020-06-18T17:06:00Z"]
    }
}
