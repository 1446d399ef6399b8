import CareSyncCore
import Foundation
import Testing

/// A subscription's queue stays bounded on every store: a patient's change updates that patient's waiting delivery
/// that was never offered (never the head, never one attempted or replayed), and beyond the cap the oldest waiting
/// deliveries after the head are dropped, marked failed and counted (docs/api.md "Webhooks").
@Suite struct WebhookQueueBoundContractTests {
    let base = WebhookContractTests()

    func fanOut(_ s: WebhookContractTests.Stores, maxPending: Int = 100) throws {
        _ = try s.webhooks.fanOut(limit: 100, maxPending: maxPending, now: base.now)
    }

    @Test(arguments: ContractStores.webhooks)
    func aPatientsLaterChangeUpdatesItsWaitingDeliveryButNeverTheHead(factory: ContractWebhookStores) throws {
        let s = try base.make(factory)
        try s.webhooks.createSubscription(base.subscription("wh_1"))
        let a1 = try base.change(s, "alice")
        try fanOut(s)
        // Alice's first delivery is the head (it may be in flight): her next change queues behind it, and her changes
        // after that update that second delivery, which nobody has been offered yet.
        _ = try base.change(s, "alice")
        let b3 = try base.change(s, "bob")
        _ = try base.change(s, "alice", value: 2)
        try fanOut(s)
        let a5 = try base.change(s, "alice", value: 3)
        try fanOut(s)
        let status = try #require(try s.webhooks.subscription(id: "wh_1"))
        #expect(status.nextSequence == 4 && status.pendingDeliveries == 3 && status.droppedDeliveries == 0)
        let got = try base.drain(s, "wh_1")
        #expect(got.map(\.sequence) == [1, 2, 3])
        #expect(got.map(\.patient) == ["alice", "alice", "bob"])
        #expect(got.map(\.anchor) == [a1.encoded, a5.encoded, b3.encoded])
    }

    @Test(arguments: ContractStores.webhooks)
    func aDeliveryAttemptedOrReplayedIsNeverUpdated(factory: ContractWebhookStores) throws {
        let s = try base.make(factory)
        try s.webhooks.createSubscription(base.subscription("wh_1"))
        let a1 = try base.change(s, "alice")
        try fanOut(s)
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: base.now, status: 503, error: "status 503",
                                             outcome: .retry(at: base.now)))
        let a2 = try base.change(s, "alice")
        try fanOut(s)
        #expect(try base.drain(s, "wh_1").map(\.anchor) == [a1.encoded, a2.encoded])
        // Replayed: both go out again as they were sent; alice's next change is a new delivery.
        #expect(try s.webhooks.replay(subscription: "wh_1", fromSequence: 1, now: base.now) == 2)
        let a3 = try base.change(s, "alice")
        try fanOut(s)
        let got = try base.drain(s, "wh_1")
        #expect(got.map(\.sequence) == [1, 2, 3])
        #expect(got.map(\.anchor) == [a1.encoded, a2.encoded, a3.encoded])
    }

    @Test(arguments: ContractStores.webhooks)
    func beyondTheCapTheOldestWaitingAfterTheHeadAreDroppedAndCounted(factory: ContractWebhookStores) throws {
        let s = try base.make(factory)
        for id in ["dave", "erin"] { try s.access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: base.now)) }
        try s.webhooks.createSubscription(base.subscription("wh_1"))
        _ = try base.change(s, "alice")
        try fanOut(s, maxPending: 3)
        for patient in ["bob", "carol", "dave", "erin"] { _ = try base.change(s, patient) }
        try fanOut(s, maxPending: 3)
        let status = try #require(try s.webhooks.subscription(id: "wh_1"))
        #expect(status.nextSequence == 6 && status.pendingDeliveries == 3 && status.droppedDeliveries == 2)
        // Bob's delivery was dropped: his next change is a new one, which pushes out the oldest after the head again.
        _ = try base.change(s, "bob")
        try fanOut(s, maxPending: 3)
        #expect(try s.webhooks.subscription(id: "wh_1")?.droppedDeliveries == 3)
        let got = try base.drain(s, "wh_1")
        #expect(got.map(\.sequence) == [1, 5, 6])
        #expect(got.map(\.patient) == ["alice", "erin", "bob"])
        // Dropped deliveries are kept like failed ones: a replay sends them again.
        #expect(try s.webhooks.replay(subscription: "wh_1", fromSequence: 2, now: base.now) == 5)
        #expect(try base.drain(s, "wh_1").map(\.sequence) == [2, 3, 4, 5, 6])
    }
}
