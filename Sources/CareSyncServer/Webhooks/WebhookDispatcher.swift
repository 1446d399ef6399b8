import CareSyncCore
import CareSyncLocking
import Foundation
import Logging
import Synchronization

/// The webhook delivery job: moves outbox entries into per-subscription deliveries (`WebhookStore.fanOut`) and
/// POSTs the head of each unpaused subscription's queue, one at a time per subscription (so in order) and many
/// subscriptions at once. A 2xx is delivered; anything else, a timeout or a connection error is retried with
/// `WebhookBackoff` until `retryForHours` after the first attempt, then marked failed and the next goes on.
///
/// Every step is recorded in the store before the next, so a process killed at any point redelivers at most the
/// attempt it was making per subscription (at-least-once); outcomes that end together share one commit
/// (`WebhookOutcomeRecorder`). It wakes on the first commit that changed a feed since its last fan-out
/// (`ChangeNotifier.onSignal`), when an attempt ends, when the next retry falls due, and at least every
/// `pollInterval` (changes committed by other PostgreSQL instances, admin actions). It does all this only while its
/// instance holds the `LeasedJob.webhooks` lease: one dispatcher per database, however many instances.
public final class WebhookDispatcher: Sendable {
    /// Outbox entries moved per transaction.
    static let fanOutBatch = 500
    /// Subscriptions attempted at once.
    static let maxInFlight = 32
    /// The shortest time between two fan-outs: under heavy ingest a commit arrives every few hundred microseconds,
    /// and each fan-out is a write transaction beside theirs.
    static let fanOutSpacing: Duration = .milliseconds(100)

    private let store: any WebhookStore
    private let leases: any JobLeases
    private let settings: Configuration.Webhooks
    private let client: WebhookHTTPClient
    private let executor: BlockingExecutor
    private let metrics: ServerMetrics?
    private let logger: Logger
    private let clock: ServerClock
    private let random: @Sendable () -> Double
    private let resolve: WebhookAddressGuard.Resolver
    private let pollInterval: Duration
    private let doorbell = Doorbell()
    /// Stores attempt outcomes, many in one commit.
    private let outcomes: WebhookOutcomeRecorder
    /// Set by every commit that changed a feed: the outbox has something to fan out.
    private let committed = Atomic<Bool>(true)
    private let loop = Locked<Task<Void, Never>?>(nil)
    /// The attempt under way per subscription, and how many ended: a head read before an attempt ended is stale.
    private let inFlight = Locked<Running>(Running())
    private struct Running {
        var tasks: [String: Task<Void, Never>] = [:]
        var ended: [String: Int] = [:]
    }
    /// What the next dispatch pass reads: every head, or only those of the subscriptions whose attempt ended since
    /// the last pass (the common wake while deliveries flow: one subscription's next head, not every one's).
    private let nextPass = Locked<Pass>(Pass())
    private struct Pass {
        var everyHead = true
        var ended: Set<String> = []
    }

    /// A job over `store`, running while `leases` grants it the webhooks lease, woken by `notifier`'s commits. `clock`
    /// and `random` (in [0, 1), the backoff's jitter) are injectable for tests.
    public convenience init(store: any WebhookStore, leases: any JobLeases, settings: Configuration.Webhooks, notifier: ChangeNotifier?,
                            executor: BlockingExecutor = BlockingExecutor(label: "caresync.webhooks"), metrics: ServerMetrics? = nil,
                            logger: Logger = Logger(label: "caresync.webhooks"), pollInterval: Duration = .seconds(1),
                            clock: ServerClock,
                            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.init(store: store, leases: leases, settings: settings, notifier: notifier, executor: executor, metrics: metrics,
                  logger: logger, pollInterval: pollInterval, clock: clock, random: random, resolve: WebhookAddressGuard.system)
    }

    /// The same job with the address guard's name lookup injected (tests: a name that answers what they say).
    init(store: any WebhookStore, leases: any JobLeases, settings: Configuration.Webhooks, notifier: ChangeNotifier?,
         executor: BlockingExecutor = BlockingExecutor(label: "caresync.webhooks"), metrics: ServerMetrics? = nil,
         logger: Logger = Logger(label: "caresync.webhooks"), pollInterval: Duration = .seconds(1),
         clock: ServerClock,
         random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
         resolve: @escaping WebhookAddressGuard.Resolver) {
        self.store = store; self.leases = leases; self.settings = settings; self.executor = executor; self.metrics = metrics; self.logger = logger
        self.pollInterval = pollInterval; self.clock = clock; self.random = random
        self.resolve = resolve
        client = WebhookHTTPClient(timeout: settings.timeout)
        outcomes = WebhookOutcomeRecorder(store: store, executor: executor, logger: logger)
        // Only the first commit since the last fan-out rings: under ingest, thousands of commits a second would
        // otherwise wake the job as often, each time to find the fan-out spacing not yet passed.
        notifier?.onSignal { [weak self] _ in
            guard let self, !committed.exchange(true, ordering: .relaxed) else { return }
            readEveryHead()
        }
    }

    /// Starts the job; a second call does nothing.
    public func start() {
        loop.withLock { current in
            guard current == nil else { return }
            current = Task.detached { [self] in await run() }
        }
    }

    /// Stops the job: attempts under way are cancelled and not recorded (their deliveries go out again after a restart).
    public func stop() async {
        let running = loop.withLock { current in defer { current = nil }; return current }
        running?.cancel()
        doorbell.ring()
        await running?.value
        for attempt in inFlight.withLock({ Array($0.tasks.values) }) {
            attempt.cancel()
            await attempt.value
        }
    }

    /// Wakes the job now (after an admin action, in tests).
    public func poke() { readEveryHead() }

    /// Wakes the job for a pass over every subscription's head.
    private func readEveryHead() {
        nextPass.withLock { $0.everyHead = true }
        doorbell.ring()
    }

    private func run() async {
        var lastPurge: Date?
        var lastFanOut = clock.instant() - pollInterval
        // When the earliest head not yet due falls due, as the last pass over every head found it.
        var nextDue = clock.instant()
        while !Task.isCancelled {
            var wait = pollInterval
            do {
                let (store, leases) = (self.store, self.leases)
                if try await executor.run({ try leases.acquireLease(.webhooks) }) {
                    // Fan out after a commit (other instances' commits: every poll), at most every `fanOutSpacing`.
                    let sinceFanOut = clock.instant() - lastFanOut
                    if committed.exchange(false, ordering: .relaxed) || sinceFanOut >= pollInterval {
                        if sinceFanOut >= Self.fanOutSpacing {
                            lastFanOut = clock.instant()
                            let maxPending = settings.maxPendingDeliveries
                            while try await executor.run({ [clock] in try store.fanOut(limit: Self.fanOutBatch, maxPending: maxPending, now: clock.now()) })
                                    == Self.fanOutBatch, !Task.isCancelled {}
                            nextPass.withLock { $0.everyHead = true }
                        } else {
                            committed.store(true, ordering: .relaxed)
                            wait = Self.fanOutSpacing - sinceFanOut
                        }
                    }
                    wait = min(wait, try await dispatchDue(nextDue: &nextDue))
                    if lastPurge.map({ clock.now().timeIntervalSince($0) >= 3600 }) ?? true {
                        lastPurge = clock.now()
                        let before = clock.now().addingTimeInterval(-Double(settings.deliveryRetentionDays) * 86_400)
                        _ = try await executor.run { try store.purgeDeliveries(completedBefore: before) }
                    }
                }
            } catch {
                nextPass.withLock { $0.everyHead = true }
                logger.error("webhooks.dispatch_failed", metadata: ["error.type": "\(type(of: error))"])
            }
            guard !Task.isCancelled else { return }
            await doorbell.wait(upTo: wait)
        }
    }

    /// Starts an attempt for every head that is due and not under way; returns how long until the next is due.
    /// Reads every head when asked to (a commit, an admin action, an error), once `nextDue` has come, and after a
    /// pass that found no free slot for a due head; otherwise only the heads of subscriptions whose attempt ended.
    private func dispatchDue(nextDue: inout ContinuousClock.Instant) async throws -> Duration {
        let store = self.store
        // The pass first: an attempt that ends after it counts in `ended` below or waits in the next pass.
        let pass = nextPass.withLock { pass in defer { pass = Pass(everyHead: false) }; return pass }
        let ended = inFlight.withLock { $0.ended }
        let every = pass.everyHead || clock.instant() >= nextDue
        let heads = try await executor.run { every ? try store.heads() : try store.heads(of: pass.ended) }
        let now = clock.now(), started = clock.instant()
        var wait = every ? pollInterval : started.duration(to: nextDue)
        for head in heads {
            if head.nextAttemptAt > now {
                let due = Duration.milliseconds(Int64((head.nextAttemptAt.timeIntervalSince(now) * 1000).rounded(.up)))
                wait = min(wait, due)
                continue
            }
            let id = head.subscriptionID
            let full = inFlight.withLock { running -> Bool in
                // Under way, or one ended since `heads` was read (this head may be the one it just recorded).
                guard running.tasks[id] == nil, running.ended[id] == ended[id] else { return false }
                guard running.tasks.count < Self.maxInFlight else { return true }
                running.tasks[id] = Task { [self] in
                    await attempt(head)
                    inFlight.withLock { $0.tasks[id] = nil; $0.ended[id, default: 0] += 1 }
                    nextPass.withLock { _ = $0.ended.insert(id) }
                    doorbell.ring()
                }
                return false
            }
            if full {
                // A due head waits for a slot: the pass after the next attempt ends reads every head again.
                nextPass.withLock { $0.everyHead = true }
                break
            }
        }
        nextDue = started + wait
        return wait
    }

    /// One attempt of `delivery`, then its outcome recorded.
    private func attempt(_ delivery: WebhookDelivery) async {
        let started = clock.now()
        let result = await send(delivery, at: started)
        guard !Task.isCancelled else { return }
        let now = clock.now()
        let outcome: WebhookAttempt.Outcome
        if let status = result.status, (200..<300).contains(status) {
            outcome = .delivered
        } else if now.timeIntervalSince(delivery.firstAttemptAt ?? started) >= Double(settings.retryForHours) * 3600 {
            outcome = .failed
        } else {
            let wait = WebhookBackoff.delay(failures: delivery.attempts + 1, initial: settings.retryInitial,
                                            maximum: settings.retryMax, random: random())
            outcome = .retry(at: now.addingTimeInterval(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18))
        }
        let attempt = WebhookAttempt(subscriptionID: delivery.subscriptionID, sequence: delivery.sequence, time: started,
                                     status: result.status, error: result.error, outcome: outcome)
        let name = switch outcome { case .delivered: "delivered"; case .retry: "retry"; case .failed: "failed" }
        metrics?.webhookAttempted(outcome: name)
        logger.log(level: outcome == .delivered ? .debug : .warning, "webhooks.attempt", metadata: [
            "webhook.id": .string(delivery.subscriptionID), "webhook.sequence": .stringConvertible(delivery.sequence),
            "webhook.outcome": .string(name), "webhook.status": .string(result.status.map(String.init) ?? "none"),
            "webhook.error": .string(result.error ?? ""),
        ])
        await outcomes.record(attempt)
    }

    /// Checks the address again (one lookup), signs and POSTs to the addresses that lookup answered.
    private func send(_ delivery: WebhookDelivery, at time: Date) async -> WebhookHTTPClient.Result {
        let (url, allowPrivate, resolve) = (delivery.url, settings.allowPrivateAddresses, self.resolve)
        let checked: Result<WebhookAddressGuard.Target, WebhookAddressGuard.Refusal>
        do {
            checked = try await executor.run { WebhookAddressGuard.target(of: url, allowPrivate: allowPrivate, resolve: resolve) }
        } catch {
            return WebhookHTTPClient.Result(status: nil, error: "cancelled")
        }
        let target: WebhookAddressGuard.Target
        switch checked {
        case .failure(let refusal): return WebhookHTTPClient.Result(status: nil, error: "refused: the URL \(refusal.message)")
        case .success(let found): target = found
        }
        let body = WebhookWire.event(delivery)
        let timestamp = Int64(time.timeIntervalSince1970.rounded(.down))
        guard let signature = WebhookSignature.sign(secret: delivery.secret, id: delivery.messageID, timestamp: timestamp, body: body) else {
            return WebhookHTTPClient.Result(status: nil, error: "the secret is not whsec_<base64>")
        }
        return await client.post(target, body: body, headers: [
            ("Content-Type", "application/json"), ("User-Agent", "CareSync-Webhooks/1"),
            ("webhook-id", delivery.messageID), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature),
        ])
    }
}
