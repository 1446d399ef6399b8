import CareSyncCore
import CareSyncHTTP
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The delivery job end to end: signed Standard Webhooks POSTs, in order per subscription, retried with backoff,
/// given up after the retry window, the address checked again before every attempt.
@Suite struct WebhookDeliveryTests {
    /// How long a delivery may take to show. Alone, each test here passes in well under a second. During a full
    /// `swift test` on two cores, about 460 tests share the process, and a test waited past 10 s about one run in
    /// five. Nothing is asserted about speed here.
    static let deadline: Duration = .seconds(30)

    /// Whether a received request carries a valid signature of its own body by `secret`, within 5 minutes of now.
    static func verifies(_ r: WebhookReceiver.Received, secret: String) -> Bool {
        guard let id = r.headers["webhook-id"], let stamp = r.headers["webhook-timestamp"].flatMap(Int64.init),
              let signature = r.headers["webhook-signature"], abs(Date().timeIntervalSince1970 - Double(stamp)) < 300 else { return false }
        return WebhookSignature.sign(secret: secret, id: id, timestamp: stamp, body: r.body) == signature
    }

    @Test func aChangeIsPostedSignedWithItsAnchorAndNoSampleValue() async throws {
        let receiver = try WebhookReceiver()
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            try await TestServer.with(configure: { $0.webhooks.allowPrivateAddresses = true }) { server in
                let created = try await server.send("POST", "/v1/webhooks", token: server.tokens.admin,
                                                    json: ["url": .string(receiver.url()), "patients": ["alice"]])
                let id = try #require(created.json["id"]?.stringValue), secret = try #require(created.json["secret"]?.stringValue)
                var anchors: [String] = []
                for value in [4242.0, 4343, 4444] {
                    let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                                      json: ["samples": [Fixtures.steps(value)]])
                    anchors.append(try #require(reply.json["anchor"]?.stringValue))
                    // Each change waits for the one before to arrive: a change would otherwise update alice's waiting delivery.
                    try await Eventually.until(deadline: Self.deadline) { receiver.received.count >= anchors.count }
                }
                // Bob's change is not for this subscription.
                _ = try await server.send("POST", "/v1/patients/bob/samples", token: server.tokens.bobDevice, json: ["samples": [Fixtures.steps(1)]])
                try await Eventually.until(deadline: Self.deadline) { receiver.received.count >= 3 }
                let got = receiver.received
                #expect(got.count == 3)
                #expect(got.map(\.sequence) == [1, 2, 3])
                // The payload's anchor is the write's (answers seal theirs, so compare the positions).
                let anchorWire = server.app.api.anchors
                #expect(got.map { $0.json["data"]?["anchor"]?.stringValue.flatMap { try? anchorWire.decode($0) } } == anchors.map { try? anchorWire.decode($0) })
                #expect(got.allSatisfy { $0.path == "/hook" && $0.headers["content-type"] == "application/json" })
                #expect(got.allSatisfy { Self.verifies($0, secret: secret) })
                #expect(got.map { $0.headers["webhook-id"] } == (1...3).map { "msg_\(id)_\($0)" })
                for r in got {
                    #expect(r.json["type"] == "patient.changed" && r.json["data"]?["patient"] == "alice")
                    #expect(Set(r.json.objectValue?.keys ?? [:].keys) == ["type", "timestamp", "data"])
                    #expect(Set(r.json["data"]?.objectValue?.keys ?? [:].keys) == ["patient", "anchor", "sequence"])
                    let text = String(decoding: r.body, as: UTF8.self)
                    #expect(!text.contains("value") && !text.contains("stepCount"), "\(text)")
                }
                try await Eventually.until(deadline: Self.deadline) {
                    try server.app.api.webhooks.subscription(id: id)?.lastDeliveredSequence == 3
                }
            }
        }
    }

    @Test func aFailingReceiverIsRetriedWithTheSameIdAndNothingLaterOvertakesIt() async throws {
        // 500, a refused redirect, then success.
        let receiver = try WebhookReceiver { index, _ in
            switch index {
            case 0: Response(status: .internalServerError)
            case 1: Response(status: .found, headers: [.location: "/elsewhere"])
            default: Response(status: .ok)
            }
        }
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            let h = try WebhookDispatcherHarness()
            let subscription = try h.subscribe(receiver.url())
            for patient in ["alice", "bob", "carol"] { try h.change(patient) }
            try await h.running {
                try await Eventually.until(deadline: Self.deadline) { try h.status()?.lastDeliveredSequence == 3 }
            }
            let got = receiver.received
            #expect(got.map(\.sequence) == [1, 1, 1, 2, 3])
            #expect(got.map(\.path) == Array(repeating: "/hook", count: 5))
            #expect(Set(got.prefix(3).map { $0.headers["webhook-id"] }) == ["msg_wh_test_1"])
            #expect(got.allSatisfy { Self.verifies($0, secret: subscription.secret) })
            #expect(try h.status()?.failingSince == nil)
        }
    }

    @Test func subscriptionsBeyondTheSlotsAreServedWithoutWaitingForThePoll() async throws {
        let receiver = try WebhookReceiver()
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            // A poll far beyond the deadline: every subscription must be reached through the passes that attempts
            // ending start, including the ones that found no free slot the first time.
            let h = try WebhookDispatcherHarness(pollInterval: .seconds(600))
            let ids = (1...(WebhookDispatcher.maxInFlight + 8)).map { "wh_\($0)" }
            for id in ids { try h.subscribe(receiver.url(), id: id) }
            for patient in ["alice", "bob", "carol"] { try h.change(patient) }
            try await h.running {
                try await Eventually.until(deadline: Self.deadline) {
                    try ids.allSatisfy { try h.status($0)?.lastDeliveredSequence == 3 }
                }
            }
            // Each subscription's three in order, once each.
            let bySubscription = Dictionary(grouping: receiver.received) { $0.headers["webhook-id"]?.split(separator: "_").dropLast().joined(separator: "_") ?? "" }
            #expect(Set(bySubscription.keys) == Set(ids.map { "msg_\($0)" }))
            #expect(bySubscription.values.allSatisfy { $0.map(\.sequence) == [1, 2, 3] })
        }
    }

    @Test func aTimeoutCountsAsAFailure() async throws {
        let receiver = try WebhookReceiver { index, _ in
            if index == 0 { try? await Task.sleep(for: .seconds(10)) }
            return Response(status: .noContent)
        }
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            let h = try WebhookDispatcherHarness(timeout: .seconds(3))
            try h.subscribe(receiver.url())
            try h.change()
            try await h.running {
                try await Eventually.until(deadline: Self.deadline) { try h.status()?.lastDeliveredSequence == 1 }
            }
            // The first attempt timed out, so the delivery was made again. A later attempt may time out too when the
            // machine is loaded (under ThreadSanitizer one did), so "again" is at least once more.
            let sequences = receiver.received.map(\.sequence)
            #expect(sequences.count >= 2 && sequences.allSatisfy { $0 == 1 }, "\(sequences)")
        }
    }

    @Test func aDeliveryIsGivenUpAfterTheRetryWindowAndTheReceiverSeesTheGap() async throws {
        let receiver = try WebhookReceiver { _, request in
            let sequence = (try? JSONValue.parse(request.body))?["data"]?["sequence"]
            return Response(status: sequence == 1 ? .serviceUnavailable : .noContent)
        }
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            let h = try WebhookDispatcherHarness()
            try h.subscribe(receiver.url())
            try h.change("alice")
            try h.change("bob")
            var failingSince = Date.distantFuture
            try await h.running {
                try await Eventually.until(deadline: Self.deadline) { receiver.received.count >= 2 }
                // Still inside the window: sequence 1 is retried and 2 waits behind it.
                #expect(receiver.received.allSatisfy { $0.sequence == 1 })
                failingSince = try #require(try h.status()?.failingSince)
                h.clock.advance(by: 72 * 3600 + 1)
                try await Eventually.until(deadline: Self.deadline) { try h.status()?.lastDeliveredSequence == 2 }
            }
            let got = receiver.received.map(\.sequence)
            #expect(got.last == 2 && got.dropLast().allSatisfy { $0 == 1 })
            let status = try #require(try h.status())
            #expect(status.failingSince == nil && status.pendingDeliveries == 0 && failingSince <= Date())
        }
    }

    @Test func theDispatcherHoldsEachQueueToTheConfiguredCap() async throws {
        let receiver = try WebhookReceiver { _, _ in Response(status: .serviceUnavailable) }
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            let h = try WebhookDispatcherHarness(maxPendingDeliveries: 2)
            try h.subscribe(receiver.url())
            for patient in ["alice", "bob", "carol"] { try h.change(patient) }
            try await h.running {
                // Alice's is the head (retried: the receiver fails); bob's, the oldest after it, was dropped.
                try await Eventually.until(deadline: Self.deadline) { try h.status()?.droppedDeliveries == 1 && !receiver.received.isEmpty }
            }
            #expect(try h.status()?.pendingDeliveries == 2)
            #expect(Set(receiver.received.map(\.sequence)) == [1])
        }
    }

    @Test func theAddressIsCheckedAgainBeforeEveryAttempt() async throws {
        let receiver = try WebhookReceiver()
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            // The subscription names a loopback URL (as if its name had resolved elsewhere when it was made).
            let h = try WebhookDispatcherHarness(allowPrivateAddresses: false)
            try h.subscribe(receiver.url())
            try h.change()
            try await h.running {
                try await Eventually.until(deadline: Self.deadline) { (try h.webhooks.heads().first?.attempts ?? 0) >= 2 }
            }
            #expect(receiver.received.isEmpty)
            #expect(try h.status()?.failingSince != nil && h.status()?.lastDeliveredSequence == 0)
        }
    }

    @Test func pauseQueuesResumeDeliversAndReplayDeliversAgain() async throws {
        let receiver = try WebhookReceiver()
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            try await TestServer.with(configure: { $0.webhooks.allowPrivateAddresses = true }) { server in
                let admin = server.tokens.admin
                let created = try await server.send("POST", "/v1/webhooks", token: admin, json: ["url": .string(receiver.url())])
                let id = try #require(created.json["id"]?.stringValue)
                #expect(try await server.send("POST", "/v1/webhooks/\(id)/pause", token: admin).status == 200)
                // Two patients: two deliveries (a second change of alice would update her waiting one).
                #expect(try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                              json: ["samples": [Fixtures.steps(1)]]).status == 200)
                #expect(try await server.send("POST", "/v1/patients/bob/samples", token: server.tokens.bobDevice,
                                              json: ["samples": [Fixtures.steps(2)]]).status == 200)
                // Fanned out (queued), and not delivered: a paused subscription has no head.
                try await Eventually.until(deadline: Self.deadline) { try server.app.api.webhooks.subscription(id: id)?.pendingDeliveries == 2 }
                #expect(try server.app.api.webhooks.heads().isEmpty && receiver.received.isEmpty)
                let resumed = try await server.send("POST", "/v1/webhooks/\(id)/resume", token: admin)
                #expect(resumed.status == 200 && resumed.json["paused"] == false)
                try await Eventually.until(deadline: Self.deadline) { receiver.received.count == 2 }
                try await Eventually.until(deadline: Self.deadline) { try server.app.api.webhooks.subscription(id: id)?.lastDeliveredSequence == 2 }
                let replay = try await server.send("POST", "/v1/webhooks/\(id)/replay", token: admin, json: ["fromSequence": 1])
                #expect(replay.status == 200 && replay.json["requeued"] == 2, "\(replay.text)")
                try await Eventually.until(deadline: Self.deadline) { receiver.received.count == 4 }
                #expect(receiver.received.map(\.sequence) == [1, 2, 1, 2])
                #expect(receiver.received.map { $0.headers["webhook-id"] } == ["msg_\(id)_1", "msg_\(id)_2", "msg_\(id)_1", "msg_\(id)_2"])
            }
        }
    }

    /// Full jitter: a random wait up to initial · 2^(n-1), capped.
    @Test(arguments: [
        (1, 0.0, 0.0), (1, 0.5, 2.5), (1, 0.999999, 5.0), (2, 0.5, 5.0), (3, 0.5, 10.0), (10, 0.999999, 2560.0),
        (11, 0.999999, 3600.0), (40, 0.5, 1800.0), (1000, 0.5, 1800.0),
    ])
    func theBackoffDoublesUpToItsCapWithFullJitter(failures: Int, random: Double, seconds: Double) {
        let delay = WebhookBackoff.delay(failures: failures, initial: .seconds(5), maximum: .seconds(3600), random: random)
        #expect(abs(Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18 - seconds) < 0.01)
    }
}
