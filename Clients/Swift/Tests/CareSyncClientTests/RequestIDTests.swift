import Foundation
import Testing
@testable import CareSyncClient

/// `X-Request-ID`: one per logical request, the same on each of its retries, echoed by the server and quoted by `Problem`.
extension FaultInjection { @Suite struct RequestIDTests {
    @Test func everyRetryOfARequestCarriesItsIdAndTheNextRequestANewOne() async throws {
        let server = try LiveServer()
        let session = FaultyProtocol.session(script: [.unavailable(retryAfter: 0), .forwardThenDrop, .pass])
        let device = server.device(session: session, retryPolicy: FaultInjection.PushTests.fast)
        _ = try await device.push(patient: "alice", samples: Story.steps(3))   // three attempts, one logical request
        _ = try await device.types()                                           // a second logical request

        let seen = FaultyProtocol.state.withLock { $0.requests }
        #expect(seen.count == 4)
        let ids = seen.map(\.requestID)
        #expect(ids[0] != nil && ids[0] == ids[1] && ids[1] == ids[2], "a retry changed the request id: \(ids)")
        #expect(ids[3] != nil && ids[3] != ids[0], "two logical requests shared an id")
        #expect(seen[2].answeredRequestID == ids[2], "the server did not echo the client's id")
        #expect(seen[3].answeredRequestID == ids[3])
    }

    @Test func aRefusalQuotesTheIdTheClientSent() async throws {
        let server = try LiveServer()
        let session = FaultyProtocol.session(script: [])
        let device = server.device(session: session, retryPolicy: .never)
        var bad = Story.steps(1)
        bad[0].syncVersion = nil
        let problem = try await #require(throws: Problem.self) { try await device.push(patient: "alice", samples: bad) }
        let seen = try #require(FaultyProtocol.state.withLock { $0.requests }.first)
        #expect(problem.code == "validationFailed")
        #expect(seen.requestID != nil && problem.requestID == seen.requestID)
        #expect(seen.answeredRequestID == seen.requestID, "the answer's X-Request-ID is not the client's")
    }

    @Test func aRefusalAfterRetriesQuotesTheSameId() async throws {
        let server = try LiveServer()
        // Two injected 503s (their answers carry no X-Request-ID), then the server's own 404.
        let session = FaultyProtocol.session(script: [.unavailable(retryAfter: 0), .unavailable(retryAfter: 0)])
        let device = server.device(session: session, retryPolicy: FaultInjection.PushTests.fast)
        let problem = try await #require(throws: Problem.self) { try await device.changes(patient: "nobody", anchor: nil) }
        let seen = FaultyProtocol.state.withLock { $0.requests }
        #expect(seen.count == 3 && Set(seen.map(\.requestID)).count == 1)
        #expect(problem.status == 404 && problem.requestID == seen[0].requestID)
    }

    @Test func whenNoAnswerCarriesAnIdTheProblemQuotesTheOneSent() async throws {
        let server = try LiveServer()
        let session = FaultyProtocol.session(script: Array(repeating: .unavailable(retryAfter: 0), count: 3))
        let device = server.device(session: session, retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1)))
        let problem = try await #require(throws: Problem.self) { try await device.types() }
        let seen = FaultyProtocol.state.withLock { $0.requests }
        #expect(problem.status == 503 && seen.count == 3)
        #expect(problem.requestID != nil && problem.requestID == seen[0].requestID)
    }
}}
