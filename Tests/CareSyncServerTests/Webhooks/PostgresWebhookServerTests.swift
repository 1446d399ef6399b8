import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Webhooks with two CareSync instances on one PostgreSQL database: both run a dispatcher, one delivers, and the
/// events of either instance go out once each, in order, the last change's anchor included. Runs when `CARESYNC_TEST_POSTGRES_URL` names a server.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresWebhookServerTests {
    @Test func twoInstancesDeliverEachEventOnceInOrderUpToTheLastChange() async throws {
        let receiver = try WebhookReceiver()
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            let url = try PostgresServerTests.freshSchemaURL()
            try await TestServer.with(configure: { $0.databaseURL = url; $0.webhooks.allowPrivateAddresses = true }) { one in
                try await TestServer.withInstance({ var c = one.app.configuration; c.port = 0; return c }()) { two, _ in
                    let created = try await one.send("POST", "/v1/webhooks", token: one.tokens.admin, json: ["url": .string(receiver.url())])
                    let secret = try #require(created.json["secret"]?.stringValue)
                    var anchors: [String] = []
                    for value in 1...10 {
                        let input = SampleInput(type: .stepCount, value: Double(value), start: Date(timeIntervalSince1970: 1_592_474_400),
                                                end: Date(timeIntervalSince1970: 1_592_475_000))
                        let store = value % 2 == 0 ? one.app.api.store : two.api.store
                        anchors.append(try store.upsert([input], patient: "alice", source: "org.example.phone", now: Date()).anchor.encoded)
                    }
                    // Alice's waiting delivery takes her later changes: the last anchor arrives, each delivery once, in order.
                    func anchor(_ r: WebhookReceiver.Received) -> String? { r.json["data"]?["anchor"]?.stringValue }
                    try await Eventually.until(deadline: .seconds(20)) { receiver.received.last.flatMap(anchor) == anchors.last }
                    let got = receiver.received
                    #expect(got.map(\.sequence) == Array(1...got.count))
                    let positions = got.compactMap { r in anchor(r).flatMap { anchors.firstIndex(of: $0) } }
                    #expect(positions.count == got.count && positions == positions.sorted() && Set(positions).count == positions.count)
                    #expect(got.allSatisfy { WebhookDeliveryTests.verifies($0, secret: secret) })
                }
            }
        }
    }
}
