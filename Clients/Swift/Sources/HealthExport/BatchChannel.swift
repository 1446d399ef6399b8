import Foundation
import CareSyncClient

/// A batch handed from the parser thread to the pusher, with the counts so far.
struct Batch: @unchecked Sendable {
    var samples: [SampleDraft] = []
    /// Records and correlations handed out by the parser so far (also the resume state), correlations among them.
    var items = 0
    var correlations = 0
    var bytesRead: Int64 = 0
    var unknownTypes: [String: Int] = [:]
    var unreadable: [String: Int] = [:]
    var metadataDropped: [String: Int] = [:]
    /// Sync identifiers to delete (the last batch only, after a complete parse).
    var gone: [String] = []
    var skippedElements: [String: Int] = [:]
    var error: (any Error)?
}

/// A one-slot handoff: `put` blocks the parser thread until the pusher has taken and released the batch.
final class BatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var slot: Batch?
    private var busy = false
    private var finished = false
    private var cancelled = false

    /// Hands over `batch` and waits until it has been pushed; false when the pusher stopped.
    func put(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while slot != nil || busy { if cancelled { return false }; condition.wait() }
        if cancelled { return false }
        slot = batch
        condition.broadcast()
        while slot != nil || busy { if cancelled { return false }; condition.wait() }
        return !cancelled
    }

    /// Marks the end of the batches.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, or nil at the end (blocks the calling thread while the parser works).
    func take() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while slot == nil && !finished { condition.wait() }
        guard let batch = slot else { return nil }
        slot = nil
        busy = true
        return batch
    }

    /// The batch taken last is done.
    func release() {
        condition.lock()
        busy = false
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the parser thread at its next handoff (the pusher failed).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waited for off the cooperative threads.
    func next() async -> Batch? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.take()) }
        }
    }
}
