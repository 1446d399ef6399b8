import CareSyncCore
import Foundation
import Testing

/// Webhook subscriptions and deliveries on every store: fan-out from the outbox numbers each subscription's
/// deliveries 1, 2, 3…; only the head of a queue goes out; pause, resume, replay and delete.
@Suite struct WebhookContractTests {
    let src = Contract.device, now = Contract.t0

    struct Stores {
        let sync: any SyncStore
        let access: any AccessStore
        let webhooks: any WebhookStore
    }

    /// Patients alice, bob and carol; bob in care team `cardio`.
    func make(_ factory: ContractWebhookStores) throws -> Stores {
        let (sync, access, webhooks) = try factory.make()
        for id in ["alice", "bob", "carol"] { try access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: now)) }
        try access.createCareTeam(name: "cardio", now: now)
        try access.addPatient("bob", toCareTeam: "cardio")
        return Stores(sync: sync, access: access, webhooks: webhooks)
    }

    func subscription(_ id: String, patients: [String] = [], careTeams: [String] = [], at time: Date? = nil) -> WebhookSubscription {
        WebhookSubscription(id: id, url: "https://clinic.example/\(id)", patients: patients, careTeams: careTeams,
                            events: [WebhookSubscription.patientChanged], secret: "whsec_\(id)", createdAt: time ?? now)
    }

    func change(_ s: Stores, _ patient: String, value: Double = 1) throws -> Anchor {
        try s.sync.upsert([Contract.makeInput(value: value)], patient: patient, source: src, now: now).anchor
    }

    /// The deliveries of `id` in order, by taking its head and recording it delivered until none is left.
    func drain(_ s: Stores, _ id: String) throws -> [WebhookDelivery] {
        var delivered: [WebhookDelivery] = []
        while let head = try s.webhooks.heads().first(where: { $0.subscriptionID == id }) {
            delivered.append(head)
            try s.webhooks.record(WebhookAttempt(subscriptionID: id, sequence: head.sequence, time: now, status: 204, error: nil,
                                                 outcome: .delivered))
        }
        return delivered
    }

    @Test(arguments: ContractStores.webhooks)
    func fanOutNumbersEachSubscriptionsDeliveriesInCommitOrder(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        try s.webhooks.createSubscription(subscription("wh_all"))
        try s.webhooks.createSubscription(subscription("wh_alice", patients: ["alice"]))
        try s.webhooks.createSubscription(subscription("wh_cardio", careTeams: ["cardio"]))
        let anchors = [try change(s, "alice"), try change(s, "bob"), try change(s, "carol"), try change(s, "alice", value: 2)]
        #expect(try s.webhooks.fanOut(limit: 2, maxPending: 100, now: now) == 2)
        #expect(try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now) == 2)
        #expect(try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now) == 0)
        #expect(try s.sync.outbox(after: 0, limit: 100).isEmpty)

        let all = try drain(s, "wh_all")
        #expect(all.map(\.sequence) == [1, 2, 3, 4])
        #expect(all.map(\.patient) == ["alice", "bob", "carol", "alice"])
        #expect(all.map(\.anchor) == anchors.map(\.encoded))
        #expect(all.allSatisfy { $0.url == "https://clinic.example/wh_all" && $0.secret == "whsec_wh_all" && $0.attempts == 0 })
        #expect(try drain(s, "wh_alice").map { "\($0.sequence) \($0.patient)" } == ["1 alice", "2 alice"])
        #expect(try drain(s, "wh_cardio").map { "\($0.sequence) \($0.patient)" } == ["1 bob"])
        let status = try #require(try s.webhooks.subscription(id: "wh_all"))
        #expect(status.nextSequence == 5 && status.lastDeliveredSequence == 4 && status.pendingDeliveries == 0)
        #expect(status.failingSince == nil && !status.paused)
        #expect(try s.webhooks.subscription(id: "wh_cardio")?.subscription.careTeams == ["cardio"])
        #expect(try s.webhooks.subscriptions().map(\.subscription.id).sorted() == ["wh_alice", "wh_all", "wh_cardio"])
        #expect(throws: WebhookStoreError.alreadyExists("wh_all")) { try s.webhooks.createSubscription(subscription("wh_all")) }
    }

    /// A care team's subscription gets a patient's changes while the patient is on the team: the changes fanned out
    /// before the removal are delivered, later ones are not, and they come again once the patient rejoins.
    @Test(arguments: ContractStores.webhooks)
    func aCareTeamsSubscriptionFollowsItsMembersAtFanOut(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        try s.webhooks.createSubscription(subscription("wh_cardio", careTeams: ["cardio"]))
        let before = try change(s, "bob")
        #expect(try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now) == 1)
        #expect(try s.access.removePatient("bob", fromCareTeam: "cardio", at: Date()))
        _ = try change(s, "bob", value: 2)
        #expect(try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now) == 1)
        try s.access.addPatient("bob", toCareTeam: "cardio")
        let rejoined = try change(s, "bob", value: 3)
        #expect(try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now) == 1)
        let delivered = try drain(s, "wh_cardio")
        #expect(delivered.map { "\($0.sequence) \($0.patient)" } == ["1 bob", "2 bob"])
        #expect(delivered.map(\.anchor) == [before.encoded, rejoined.encoded], "the change while off the team is not sent")
    }

    @Test(arguments: ContractStores.webhooks)
    func aSubscriptionReceivesOnlyChangesCommittedAfterItExists(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        _ = try change(s, "alice")
        try s.webhooks.createSubscription(subscription("wh_late"))
        _ = try change(s, "bob")
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        #expect(try drain(s, "wh_late").map(\.patient) == ["bob"])
    }

    @Test(arguments: ContractStores.webhooks)
    func onlyTheHeadGoesOutAndRetriesKeepItThere(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        try s.webhooks.createSubscription(subscription("wh_1"))
        for patient in ["alice", "bob", "carol"] { _ = try change(s, patient) }
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        func head() throws -> WebhookDelivery? { try s.webhooks.heads().first }
        let retryAt = now.addingTimeInterval(5)
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: now, status: 500, error: "status 500",
                                             outcome: .retry(at: retryAt)))
        var first = try #require(try head())
        #expect(first.sequence == 1 && first.attempts == 1 && first.firstAttemptAt == now && first.nextAttemptAt == retryAt)
        #expect(try s.webhooks.subscription(id: "wh_1")?.failingSince == now)
        // A second failure keeps the first attempt's time: the give-up clock runs from it.
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: retryAt, status: nil, error: "timeout",
                                             outcome: .retry(at: retryAt.addingTimeInterval(10))))
        first = try #require(try head())
        #expect(first.attempts == 2 && first.firstAttemptAt == now)
        // Given up: marked failed, the next goes on; the subscription is still failing.
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: retryAt, status: nil, error: "timeout", outcome: .failed))
        #expect(try head()?.sequence == 2)
        #expect(try s.webhooks.subscription(id: "wh_1")?.failingSince == now)
        // An attempt recorded for a delivery no longer pending changes nothing.
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: now, status: 204, error: nil, outcome: .delivered))
        #expect(try s.webhooks.subscription(id: "wh_1")?.lastDeliveredSequence == 0)
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 2, time: retryAt, status: 200, error: nil, outcome: .delivered))
        let status = try #require(try s.webhooks.subscription(id: "wh_1"))
        #expect(status.lastDeliveredSequence == 2 && status.failingSince == nil && status.pendingDeliveries == 1)
        #expect(try head()?.sequence == 3)
    }

    @Test(arguments: ContractStores.webhooks)
    func attemptsThatEndedTogetherAreRecordedInOneCall(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        for id in ["wh_1", "wh_2", "wh_3"] { try s.webhooks.createSubscription(subscription(id)) }
        _ = try change(s, "alice")
        _ = try change(s, "bob")
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        _ = try s.webhooks.setPaused(true, subscription: "wh_3", now: now)
        let later = now.addingTimeInterval(30)
        try s.webhooks.record([
            WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: now, status: 204, error: nil, outcome: .delivered),
            WebhookAttempt(subscriptionID: "wh_2", sequence: 1, time: now, status: 500, error: "status 500", outcome: .retry(at: later)),
            WebhookAttempt(subscriptionID: "wh_3", sequence: 1, time: now, status: nil, error: "timeout", outcome: .failed),
            // Already recorded earlier in the same call: no longer pending, changes nothing.
            WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: later, status: 500, error: "status 500", outcome: .failed),
        ])
        let one = try #require(try s.webhooks.subscription(id: "wh_1"))
        #expect(one.lastDeliveredSequence == 1 && one.failingSince == nil && one.pendingDeliveries == 1)
        let two = try #require(try s.webhooks.subscription(id: "wh_2"))
        #expect(two.lastDeliveredSequence == 0 && two.failingSince == now && two.pendingDeliveries == 2)
        let three = try #require(try s.webhooks.subscription(id: "wh_3"))
        #expect(three.lastDeliveredSequence == 0 && three.failingSince == now && three.pendingDeliveries == 1)
        let heads = Dictionary(uniqueKeysWithValues: try s.webhooks.heads().map { ($0.subscriptionID, $0) })
        #expect(heads["wh_1"]?.sequence == 2)
        #expect(heads["wh_2"].map { ($0.sequence, $0.attempts, $0.nextAttemptAt) } ?? (0, 0, now) == (1, 1, later))
        // The heads of some subscriptions: each as `heads()` has it, in its order; a paused or unknown one has none.
        let some = try s.webhooks.heads(of: ["wh_2", "wh_1", "wh_3", "wh_nope"])
        #expect(some.map(\.subscriptionID) == ["wh_1", "wh_2"])
        #expect(some.map(\.sequence) == [heads["wh_1"]?.sequence, heads["wh_2"]?.sequence].compactMap { $0 })
        #expect(some.map(\.nextAttemptAt) == [heads["wh_1"]?.nextAttemptAt, heads["wh_2"]?.nextAttemptAt].compactMap { $0 })
        #expect(try s.webhooks.heads(of: ["wh_2"]).map(\.subscriptionID) == ["wh_2"])
        #expect(try s.webhooks.heads(of: []).isEmpty)
    }

    @Test(arguments: ContractStores.webhooks)
    func pauseQueuesAndResumeMakesTheHeadDue(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        try s.webhooks.createSubscription(subscription("wh_1"))
        #expect(try s.webhooks.setPaused(true, subscription: "wh_1", now: now))
        #expect(try !s.webhooks.setPaused(true, subscription: "wh_nope", now: now))
        _ = try change(s, "alice")
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        #expect(try s.webhooks.heads().isEmpty)
        let status = try #require(try s.webhooks.subscription(id: "wh_1"))
        #expect(status.paused && status.pendingDeliveries == 1 && status.nextSequence == 2)
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: now, status: 503, error: "status 503",
                                             outcome: .retry(at: now.addingTimeInterval(3600))))
        let resumed = now.addingTimeInterval(60)
        #expect(try s.webhooks.setPaused(false, subscription: "wh_1", now: resumed))
        #expect(try s.webhooks.heads().map(\.nextAttemptAt) == [resumed])
    }

    @Test(arguments: ContractStores.webhooks)
    func replayQueuesKeptDeliveriesAgainFromASequence(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        try s.webhooks.createSubscription(subscription("wh_1"))
        // Fanned out one by one behind alice's first, so no change updates another's delivery.
        for patient in ["alice", "bob", "carol", "alice"] {
            _ = try change(s, patient)
            _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        }
        #expect(try drain(s, "wh_1").count == 4)
        #expect(try s.webhooks.replay(subscription: "wh_1", fromSequence: 3, now: now) == 2)
        #expect(try drain(s, "wh_1").map(\.sequence) == [3, 4])
        #expect(throws: WebhookStoreError.sequenceNotKept(oldestKept: 1, next: 5)) {
            try s.webhooks.replay(subscription: "wh_1", fromSequence: 5, now: now)
        }
        #expect(throws: WebhookStoreError.sequenceNotKept(oldestKept: 1, next: 5)) {
            try s.webhooks.replay(subscription: "wh_1", fromSequence: 0, now: now)
        }
        #expect(try s.webhooks.replay(subscription: "wh_nope", fromSequence: 1, now: now) == nil)
        // Completed deliveries are forgotten after their retention: no longer replayable.
        #expect(try s.webhooks.purgeDeliveries(completedBefore: now) == 0)
        #expect(try s.webhooks.purgeDeliveries(completedBefore: now.addingTimeInterval(1)) == 4)
        #expect(throws: WebhookStoreError.sequenceNotKept(oldestKept: nil, next: 5)) {
            try s.webhooks.replay(subscription: "wh_1", fromSequence: 1, now: now)
        }
    }

    @Test(arguments: ContractStores.webhooks)
    func deleteForgetsTheSubscriptionAndItsQueue(factory: ContractWebhookStores) throws {
        let s = try make(factory)
        try s.webhooks.createSubscription(subscription("wh_1", patients: ["alice"], careTeams: ["cardio"]))
        _ = try change(s, "alice")
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        #expect(try s.webhooks.deleteSubscription(id: "wh_1"))
        #expect(try !s.webhooks.deleteSubscription(id: "wh_1"))
        #expect(try s.webhooks.subscription(id: "wh_1") == nil && s.webhooks.heads().isEmpty)
        try s.webhooks.record(WebhookAttempt(subscriptionID: "wh_1", sequence: 1, time: now, status: 204, error: nil, outcome: .delivered))
        // The id can be taken again, and starts from 1 with no old delivery.
        try s.webhooks.createSubscription(subscription("wh_1"))
        _ = try change(s, "bob")
        _ = try s.webhooks.fanOut(limit: 100, maxPending: 100, now: now)
        #expect(try drain(s, "wh_1").map { "\($0.sequence) \($0.patient)" } == ["1 bob"])
    }
}
