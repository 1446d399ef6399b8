import CareSyncCore
import CareSyncReferenceModel
import CareSyncTestSupport
import Foundation
@testable import CareSyncServer

/// A webhook dispatcher over the reference model's stores (patient alice), with a clock that runs from the real one
/// plus an offset the test can move forward (the 72 h retry window), and quick retries.
struct WebhookDispatcherHarness {
    let access = InMemoryAccessStore()
    let sync: InMemorySyncStore
    let webhooks: InMemoryWebhookStore
    let offset = Shared<TimeInterval>(0)
    let dispatcher: WebhookDispatcher

    /// Retries after at most 50 ms, attempts time out after `timeout`.
    init(allowPrivateAddresses: Bool = true, timeout: Duration = .seconds(2)) throws {
        sync = InMemorySyncStore(access: access)
        webhooks = InMemoryWebhookStore(sync: sync, access: access)
        try access.createPatient(PatientRecord(id: "alice", timeZone: "UTC", createdAt: Date()))
        var settings = Configuration.Webhooks()
        settings.allowPrivateAddresses = allowPrivateAddresses
        settings.timeout = timeout
        settings.retryInitial = .milliseconds(50)
        settings.retryMax = .milliseconds(50)
        let offset = self.offset
        dispatcher = WebhookDispatcher(store: webhooks, leases: sync, settings: settings, notifier: sync.notifier, pollInterval: .milliseconds(50),
                                       clock: { Date().addingTimeInterval(offset.current) }, random: { 0.5 })
    }

    /// A subscription of every patient's changes to `url`.
    @discardableResult
    func subscribe(_ url: String, id: String = "wh_test") throws -> WebhookSubscription {
        let subscription = WebhookSubscription(id: id, url: url, patients: [], careTeams: [], events: [WebhookSubscription.patientChanged],
                                               secret: WebhookSignature.generateSecret(), createdAt: Date())
        try webhooks.createSubscription(subscription)
        return subscription
    }

    /// One change of alice's feed; returns its anchor.
    @discardableResult
    func change(value: Double = 1) throws -> Anchor {
        let sample = SampleInput(type: .stepCount, value: value, start: Date(timeIntervalSince1970: 1_592_474_400),
                                 end: Date(timeIntervalSince1970: 1_592_475_000))
        return try sync.upsert([sample], patient: "alice", source: "org.example.phone", now: Date()).anchor
    }

    /// The subscription's state.
    func status(_ id: String = "wh_test") throws -> WebhookSubscriptionStatus? { try webhooks.subscription(id: id) }
}
