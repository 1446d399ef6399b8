import CareSyncCore
import Logging
import CareSyncLocking

/// Records the webhook dispatcher's attempt outcomes as a group commit: an outcome that ends while a commit runs
/// waits for the next, which takes every outcome waiting by then in one transaction. Each attempt still returns
/// only once its outcome is stored, so its subscription's next head is read after it (order, at-least-once).
final class WebhookOutcomeRecorder: Sendable {
    private let store: any WebhookStore
    private let executor: BlockingExecutor
    private let logger: Logger
    private let state = Locked<Batch>(Batch())
    private struct Batch {
        var waiting: [(WebhookAttempt, CheckedContinuation<Void, Never>)] = []
        var committing = false
    }

    /// A recorder writing to `store` on `executor`.
    init(store: any WebhookStore, executor: BlockingExecutor, logger: Logger) {
        self.store = store; self.executor = executor; self.logger = logger
    }

    /// Returns once `attempt` is stored with the others of its batch, or its batch failed (logged; the delivery
    /// stays pending and goes out again).
    func record(_ attempt: WebhookAttempt) async {
        await withCheckedContinuation { continuation in
            let leads = state.withLock { batch -> Bool in
                batch.waiting.append((attempt, continuation))
                guard !batch.committing else { return false }
                batch.committing = true
                return true
            }
            // The first to wait starts the commits; every continuation resumes in `commitWaiting`.
            if leads { Task { await self.commitWaiting() } }
        }
    }

    /// Commits what waits, batch after batch, until nothing does.
    private func commitWaiting() async {
        while true {
            let batch = state.withLock { batch -> [(WebhookAttempt, CheckedContinuation<Void, Never>)] in
                defer { batch.waiting = [] }
                if batch.waiting.isEmpty { batch.committing = false }
                return batch.waiting
            }
            guard !batch.isEmpty else { return }
            let (store, attempts) = (self.store, batch.map(\.0))
            do {
                try await executor.run { try store.record(attempts) }
            } catch {
                logger.error("webhooks.record_failed", metadata: ["error.type": "\(type(of: error))", "webhook.attempts": "\(attempts.count)"])
            }
            for (_, continuation) in batch { continuation.resume() }
        }
    }
}
