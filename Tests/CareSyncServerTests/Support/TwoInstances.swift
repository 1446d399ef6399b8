import CareSyncCore
import CareSyncTestSupport
import Foundation
@testable import CareSyncServer

/// Two CareSync instances on one fresh PostgreSQL schema, both serving on loopback: instance 1 is the fixture's
/// `TestServer` (its patients and tokens), instance 2 a second `buildServer` of the same configuration, as two
/// `caresync serve` processes behind a load balancer would be.
struct TwoInstances: Sendable {
    let one: TestServer
    let two: CareSyncApplication
    /// Instance 2's bound port.
    let twoPort: Int
    /// The fixture's tokens (valid on both: they live in the shared database).
    var tokens: TestServer.Tokens { one.tokens }

    /// Runs `body` with two started instances and shuts both down afterwards, also when `body` throws.
    static func with(_ body: (TwoInstances) async throws -> Void) async throws {
        let url = try PostgresServerTests.freshSchemaURL()
        try await TestServer.with(.live, configure: { $0.databaseURL = url }) { one in
            try await TestServer.withInstance(one.app.configuration) { two, port in
                try await body(TwoInstances(one: one, two: two, twoPort: port))
            }
        }
    }

    /// Instance 1 or 2.
    func app(_ instance: Int) -> CareSyncApplication { instance == 1 ? one.app : two }

    /// Instance 1 or 2's port.
    func port(_ instance: Int) -> Int { instance == 1 ? one.port : twoPort }

    /// Sends a request to instance 1 or 2 over a socket of its own.
    func send(_ instance: Int, _ method: String, _ path: String, token: String? = nil, json: JSONValue? = nil,
              headers: [(String, String)] = []) async throws -> TestReply {
        let (all, bytes) = TestServer.request(token: token, json: json, body: nil, headers: headers)
        return try await TestHTTPClient.send(port: port(instance), method: method, path: path, headers: all, body: bytes)
    }

    /// The instance holding `job`'s lease and the other (instance 1 takes the lease when it is free).
    func holderAndOther(of job: LeasedJob) throws -> (holder: CareSyncApplication, other: CareSyncApplication) {
        try one.app.api.store.acquireLease(job) ? (one.app, two) : (two, one.app)
    }
}
