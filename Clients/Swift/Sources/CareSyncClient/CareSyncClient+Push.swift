import Foundation

extension CareSyncClient {
    /// The most samples the server takes in one request.
    public static let maxBatchSize = 5_000

    /// Pushes `samples` in batches of at most `batchSize` (the server's limit, 5,000), in order.
    ///
    /// Each batch gets its own `Idempotency-Key`, kept across that batch's retries, so a batch whose
    /// answer was lost is never stored twice. Results are per sample, indexed in `samples`. A refusal
    /// of a batch throws (earlier batches stay stored: push again and they come back `ignored` when
    /// the samples carry a sync identifier or a uuid).
    public func push(patient: String, samples: [SampleDraft], batchSize: Int = maxBatchSize) async throws -> PushResult {
        let size = min(max(1, batchSize), Self.maxBatchSize)
        var result = PushResult(results: [], requests: 0, anchor: nil)
        result.results.reserveCapacity(samples.count)
        var offset = 0
        while offset < samples.count {
            let batch = Array(samples[offset..<min(offset + size, samples.count)])
            let answer = try await upsert(patient: patient, samples: batch, idempotencyKey: UUID().uuidString)
            result.results += answer.results.map { item in
                var item = item
                item.index += offset
                return item
            }
            result.requests += 1
            result.anchor = answer.anchor
            offset += batch.count
        }
        return result
    }
}
