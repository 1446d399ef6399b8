import Foundation
import Testing
@testable import CareSyncClient

/// Tests that share ``FaultyProtocol``'s one script run one at a time.
@Suite(.serialized) enum FaultInjection {}

/// Pushing samples: batches, idempotency keys, retries.
extension FaultInjection { @Suite struct PushTests {
    static let fast = RetryPolicy(maxAttempts: 6, baseDelay: .milliseconds(20), maxDelay: .milliseconds(200))

    @Test func batchesSplitAtTheLimitAndResultsIndexTheWholePush() async throws {
        let server = try LiveServer()
        let device = server.device()
        let samples = Story.steps(12_001)
        let pushed = try await device.push(patient: "alice", samples: samples)
        #expect(pushed.requests == 3)
        #expect(pushed.results.map(\.index) == Array(0..<12_001))
        #expect(pushed.count(.inserted) == 12_001)
        let again = try await device.push(patient: "alice", samples: samples, batchSize: 7_000)
        #expect(again.requests == 3, "a batch size over the server's limit is cut to 5,000")
        #expect(again.count(.ignored) == 12_001 && again.results.allSatisfy { $0.reason == "sameVersion" })
        #expect(again.results.map(\.uuid) == pushed.results.map(\.uuid))
    }

    @Test func injected503sAndDroppedAnswersStoreEachBatchOnce() async throws {
        let server = try LiveServer()
        let session = FaultyProtocol.session(script: [
            .unavailable(retryAfter: 1), .forwardThenDrop, .pass,      // batch 1: 503, stored but answer lost, replayed
            .forwardThenDrop, .unavailable(retryAfter: 0), .pass,      // batch 2
        ])
        let device = server.device(session: session, retryPolicy: Self.fast)
        // No sync identifiers: a second write of these would store every sample again.
        let samples = Story.steps(10).map { draft -> SampleDraft in
            var draft = draft
            draft.syncIdentifier = nil
            draft.syncVersion = nil
            return draft
        }
        let started = ContinuousClock.now
        let pushed = try await device.push(patient: "alice", samples: samples, batchSize: 5)
        #expect(ContinuousClock.now - started >= .seconds(1), "Retry-After: 1 was not honoured")
        #expect(pushed.results.count == 10 && pushed.count(.inserted) == 10)
        #expect(pushed.requests == 2)

        let requests = FaultyProtocol.state.withLock { $0.requests }
        #expect(requests.count == 6)
        let keys = requests.map(\.idempotencyKey)
        #expect(keys[0] != nil && keys[0] == keys[1] && keys[1] == keys[2])
        #expect(keys[3] != nil && keys[3] == keys[4] && keys[4] == keys[5] && keys[3] != keys[0])
        let stored = try await Story.serverSamples(server.device())
        #expect(stored.count == 10)
    }

    @Test func otherClientErrorsAreNotRetried() async throws {
        let server = try LiveServer()
        let session = FaultyProtocol.session(script: [])
        let device = server.device(session: session, retryPolicy: Self.fast)
        var bad = Story.steps(1)
        bad[0].syncVersion = nil
        await #expect(throws: Problem.self) { try await device.push(patient: "alice", samples: bad) }
        #expect(FaultyProtocol.state.withLock { $0.requests.count } == 1)
    }

    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        let server = try LiveServer(environment: [
            "CARESYNC_RATE_LIMIT_TOKEN_REQUESTS_PER_SECOND": "1", "CARESYNC_RATE_LIMIT_TOKEN_BURST": "1"])
        let device = server.device(retryPolicy: Self.fast)
        let pushed = try await device.push(patient: "alice", samples: Story.steps(3), batchSize: 1)
        #expect(pushed.count(.inserted) == 3)
        #expect(try await server.metric("caresync_rate_limited_total") >= 1)
    }
}
}
