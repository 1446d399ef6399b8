import CareSyncTestSupport
import CareSyncCore
import CareSyncHTTP
import Foundation
import Testing
@testable import CareSyncServer

/// Every `code` of api.md, produced at least once with its status, as problem+json.
@Suite(.serialized) struct ErrorCodeTests {
    static func expectProblem(_ reply: TestReply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        reply.expectProblem(status, code, sourceLocation: sourceLocation)
    }

    @Test func requestErrors() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let samples = "/v1/patients/alice/samples"

            Self.expectProblem(try await server.send("POST", samples, token: t.aliceDevice, body: Array("{\"samples\": [".utf8),
                                                      headers: [("Content-Type", "application/json")]), 400, "invalidJSON")
            Self.expectProblem(try await server.send("POST", samples, token: t.aliceDevice, body: Array("<samples/>".utf8),
                                                      headers: [("Content-Type", "application/xml")]), 415, "unsupportedMediaType")
            Self.expectProblem(try await server.send("GET", "/v1/patients/alice/changes?anchor=garbage", token: t.aliceDevice), 400, "invalidAnchor")
            let foreign = Anchor(storeID: "another-database", sequence: 3).encoded
            Self.expectProblem(try await server.send("GET", "/v1/patients/alice/changes?anchor=\(foreign)", token: t.aliceDevice), 400, "invalidAnchor")
            let unauthorized = try await server.send("GET", "/v1/patients/alice/changes")
            Self.expectProblem(unauthorized, 401, "unauthorized")
            #expect(unauthorized.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            Self.expectProblem(try await server.send("GET", "/v1/patients/bob/changes", token: t.aliceDevice), 404, "notFound")
            Self.expectProblem(try await server.send("GET", "/v1/patients/alice/weekly-reports/none", token: t.therapist), 404, "notFound")
            Self.expectProblem(try await server.send("GET", "/v1/audit", token: t.aliceDevice), 403, "forbidden")
            let wrongMethod = try await server.send("PUT", samples, token: t.aliceDevice, json: ["samples": []])
            Self.expectProblem(wrongMethod, 405, "methodNotAllowed")
            #expect(wrongMethod.header("Allow")?.contains("POST") == true)
        }
    }

    @Test func validationNamesEveryBadIndexAndStoresNothing() async throws {
        try await TestServer.with { server in
            var bad = Fixtures.steps(10).objectValue!
            bad["unit"] = "kg"
            var noVersion = Fixtures.steps(10).objectValue!
            noVersion["syncIdentifier"] = "x"
            let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice, json: ["samples": [
                .object(bad), Fixtures.steps(5), ["type": "bloodSugar", "value": "high"], .object(noVersion),
                Fixtures.steps(-3), ["type": "stepCount", "value": 1, "unit": "count", "start": "2020-06-18T10:00:00", "end": "2020-06-18T09:00:00Z"],
            ]])
            Self.expectProblem(reply, 422, "validationFailed")
            let errors = reply.json["errors"]?.arrayValue ?? []
            let pairs = Set(errors.map { "\($0["index"]?.numberValue.map { Int($0) } ?? -1):\($0["field"]?.stringValue ?? "")" })
            #expect(pairs == ["0:unit", "2:type", "2:value", "2:start", "2:end", "3:syncVersion", "4:value", "5:start"])
            #expect(errors.first { $0["index"] == 0 }?["message"]?.stringValue?.contains("kg") == true)
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            #expect(feed.json["samples"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func limitsAndConflicts() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let batch = JSONValue.object(["samples": .array((0..<5001).map { Fixtures.steps(Double($0), id: "s\($0)", version: 1) })])
            Self.expectProblem(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: batch), 413, "payloadTooLarge")
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(feed.json["samples"]?.arrayValue?.isEmpty == true)

            var withUUID = Fixtures.steps(10).objectValue!
            withUUID["uuid"] = "5E0B6B4C-7A0E-4D1B-9C55-2F1E3B9A0C11"
            let first = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [.object(withUUID)]])
            #expect(first.json["results"]?[0]?["outcome"] == "inserted")
            let same = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [.object(withUUID)]])
            #expect(same.json["results"]?[0]?["outcome"] == "ignored")
            withUUID["value"] = 11
            Self.expectProblem(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [.object(withUUID)]]), 409, "conflict")
        }
    }

    @Test func anchorOlderThanTheRetentionHorizonIsGone() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let post = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Fixtures.steps(1, id: "a", version: 1)]])
            let old = try #require(post.json["anchor"]?.stringValue)
            _ = try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.aliceDevice, json: ["syncIdentifiers": ["a"]])
            let purged = try server.app.api.store.purgeTombstones(before: Date().addingTimeInterval(3600))
            #expect(purged == 1)
            Self.expectProblem(try await server.send("GET", "/v1/patients/alice/changes?anchor=\(old)", token: t.aliceDevice), 410, "anchorExpired")
            let restart = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(restart.status == 200)
        }
    }

    @Test func serverSideCodes() async throws {
        try await TestServer.with { server in
            let api = server.app.api
            var limits = APILimits()
            limits.maxParkedPolls = 0
            let busy = CareSyncAPI(store: api.store, access: api.access, webhooks: api.webhooks, limits: limits)
            let notReady = CareSyncAPI(store: api.store, access: api.access, webhooks: api.webhooks, readiness: { false })
            let broken = CareSyncAPI(store: FailingStore(storeID: api.store.storeID), access: api.access, webhooks: api.webhooks)
            func client(_ api: CareSyncAPI) -> InMemoryClient { InMemoryClient(responder: api.makeRouter(), headFilter: api.makeHeadFilter()) }
            func reply(_ r: TestResponse) -> TestReply { TestReply(status: r.status.code, headers: r.headers.map { ($0.name.rawName, $0.value) }, body: r.body) }

            let poll = await client(busy).send(.get, "/v1/patients/alice/changes?wait=5", headers: [.authorization: "Bearer \(server.tokens.aliceDevice)"])
            Self.expectProblem(reply(poll), 429, "tooManyRequests")
            Self.expectProblem(reply(await client(notReady).send(.get, "/readyz")), 503, "unavailable")
            Self.expectProblem(reply(await client(broken).send(.get, "/readyz")), 503, "unavailable")  // the database fails
            let failed = reply(await client(broken).send(.get, "/v1/patients/alice/changes", headers: [.authorization: "Bearer \(server.tokens.aliceDevice)"]))
            Self.expectProblem(failed, 500, "internal")
            #expect(!failed.text.contains("disk"))
        }
    }

    @Test func aStoreThatIsUnavailableAnswers503WithRetryAfter() async throws {
        try await TestServer.with { server in
            let api = server.app.api
            let failover = CareSyncAPI(store: FailingStore(storeID: api.store.storeID, error: FailingStore.FailingOver()), access: api.access,
                                       webhooks: api.webhooks)
            let client = InMemoryClient(responder: failover.makeRouter(), headFilter: failover.makeHeadFilter())
            let bearer = "Bearer \(server.tokens.aliceDevice)"
            let body = #"{"samples":[{"type":"stepCount","value":5,"unit":"count","start":"2020-06-18T09:00:00Z","end":"2020-06-18T09:00:00Z"}]}"#
            for response in [await client.send(.get, "/v1/patients/alice/changes", headers: [.authorization: bearer]),
                             await client.send(.post, "/v1/patients/alice/samples", headers: [.authorization: bearer, .contentType: "application/json"],
                                               body: Array(body.utf8))] {
                let reply = TestReply(status: response.status.code, headers: response.headers.map { ($0.name.rawName, $0.value) }, body: response.body)
                Self.expectProblem(reply, 503, "unavailable")
                #expect(response.headers[.retryAfter] == "1")
            }
        }
    }
}

/// A store whose every call fails: by default with an internal error, to see that a 500 shows no internals.
struct FailingStore: SyncStore {
    struct DiskOnFire: Error {}
    /// A database failing over: a failure that passes (503).
    struct FailingOver: StoreUnavailability { var isStoreUnavailable: Bool { true } }
    let storeID: String
    var anchorKey: [UInt8] { Array(repeating: 7, count: 32) }
    var error: any Error & Sendable = DiskOnFire()
    let notifier = ChangeNotifier()
    func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T { throw error }
    func write<Value: Sendable>(
        idempotency: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value> { throw error }
    func changes(_ query: ChangeQuery) throws -> ChangeSet { throw error }
    func currentAnchor() throws -> Anchor { throw error }
    func position(committedBefore instant: Date) throws -> Int64 { throw error }
    func writeTime(of position: Int64) throws -> Date? { throw error }
    func checkWritable() throws { throw error }
    func statistics(patient: String, query: StatisticsQuery) throws -> StatisticsCollection { throw error }
    func checksums(patient: String, at anchor: Anchor?) throws -> ReplicaChecksums { throw error }
    func outbox(after id: Int64, limit: Int) throws -> [OutboxEntry] { throw error }
    func report(patient: String, syncIdentifier: String, source: String) throws -> WeeklyReport? { throw error }
    func reportSources(patient: String, syncIdentifier: String) throws -> [String] { throw error }
    func reports(_ query: ReportListQuery) throws -> ReportPage { throw error }
    func purgeTombstones(before horizon: Date) throws -> Int { throw error }
    func purgeIdempotencyRecords(now: Date) throws -> Int { throw error }
    func acquireLease(_ job: LeasedJob) throws -> Bool { throw error }
}
