import CareSyncCore
import CareSyncReferenceModel
import CareSyncTestSupport
import Foundation
@testable import CareSyncServer

/// A webhook dispatcher over the reference model's stores (patients alice, bob and carol), with a clock that runs with real time
/// and that the test can move forward (the 72 h retry window), and quick retries.
struct WebhookDispatcherHarness {
    let access = InMemoryAccessStore()
    let sync: InMemorySyncStore
    let webhooks: InMemoryWebhookStore
    let clock = ManualClock(running: true)
    let dispatcher: WebhookDispatcher

    /// Retries after at most 50 ms, attempts time out after `timeout`, at most `maxPendingDeliveries` wait; the address
    /// guard looks names up with `resolve`; the job reads every head at least every `pollInterval`. The default timeout
    /// is long because tests count attempts: under ThreadSanitizer on two cores a 2 s timeout expired on receivers that
    /// answer at once, and the retry repeated a delivery. A test about timeouts sets its own.
    init(allowPrivateAddresses: Bool = true, timeout: Duration = .seconds(30), maxPendingDeliveries: Int = 10_000,
         pollInterval: Duration = .milliseconds(50),
         resolve: @escaping WebhookAddressGuard.Resolver = WebhookAddressGuard.system) throws {
        sync = InMemorySyncStore(access: access)
        webhooks = InMemoryWebhookStore(sync: sync, access: access)
        for id in ["alice", "bob", "carol"] { try access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: Date())) }
        var settings = Configuration.Webhooks()
        settings.allowPrivateAddresses = allowPrivateAddresses
        settings.timeout = timeout
        settings.maxPendingDeliveries = maxPendingDeliveries
        settings.retryInitial = .milliseconds(50)
        settings.retryMax = .milliseconds(50)
        dispatcher = WebhookDispatcher(store: webhooks, leases: sync, settings: settings, notifier: sync.notifier, pollInterval: pollInterval,
                                       clock: clock.serverClock, random: { 0.5 }, resolve: resolve)
    }

    /// Runs `body` with the dispatcher started, then awaits its stop whatever the body does.
    func running(_ body: () async throws -> Void) async throws {
        dispatcher.start()
        try await withScoped(dispatcher, close: { await $0.stop() }) { _ in try await body() }
    }

    /// A subscription of every patient's changes to `url`.
    @discardableResult
    func subscribe(_ url: String, id: String = "wh_test") throws -> WebhookSubscription {
        let subscription = WebhookSubscription(id: id, url: url, patients: [], careTeams: [], events: [WebhookSubscription.patientChanged],
                                               secret: WebhookSignature.generateSecret(), createdAt: Date())
        try webhooks.createSubscription(subscription)
        return subscription
    }

    /// One change of `patient`'s feed; returns its anchor.
    @discardableResult
    func change(_ patient: String = "alice", value: Double = 1) throws -> Anchor {
        let sample = SampleInput(type: .stepCount, value: value, start: Date(timeIntervalSince1970: 1_592_474_400),
                                 end: Date(timeIntervalSince1970: 1_592_475_000))
        return try sync.upsert([sample], patient: patient, source: "org.example.phone", now: Date()).anchor
    }

    /// The subscription's state.
    func status(_ id: String = "wh_test") throws -> WebhookSubscriptionStatus? { try webhooks.subscription(id: id) }
}
