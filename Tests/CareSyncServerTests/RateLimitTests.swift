import CareSyncCore
import CareSyncHTTP
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Per-token request budgets and per-address failed-authentication budgets (429 with Retry-After).
@Suite struct RateLimitTests {
    @Test func aTokenOverItsBudgetIsRefusedWhileAnotherTokenOnThePatientIsServed() async throws {
        // Time stands still (the server's one clock, frozen): however slow the machine, no request is earned back mid-test.
        let frozen = ManualClock()
        try await TestServer.with(clock: frozen.serverClock, configure: { configuration in
            configuration.rateLimits.tokenRequestsPerSecond = 1
            configuration.rateLimits.tokenBurst = 3
        }) { server in
            let t = server.tokens
            for _ in 0..<3 {
                #expect(try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice).status == 200)
            }
            let refused = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            refused.expectProblem(429, "tooManyRequests")
            #expect(refused.headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1) }.map { $0 >= 1 } == true)
            // The therapist's own budget is untouched.
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: t.therapist).status == 200)
            let metrics = try await server.send("GET", "/metrics")
            #expect(String(decoding: metrics.body, as: UTF8.self).contains(#"caresync_rate_limited_total{reason="token"} 1"#))
        }
    }

    @Test func repeatedFailedAuthenticationFromOneAddressIsSlowed() async throws {
        let frozen = ManualClock()
        try await TestServer.with(clock: frozen.serverClock, configure: { configuration in
            configuration.rateLimits.failedAuthPerMinute = 1
            configuration.rateLimits.failedAuthBurst = 2
        }) { server in
            for _ in 0..<2 {
                #expect(try await server.send("GET", "/v1/patients/alice/changes", token: "cs_0000000000000000_bad").status == 401)
            }
            // Now even a good token from this address waits: the address is throttled before any token is checked.
            for token in ["cs_0000000000000000_bad", server.tokens.aliceDevice] {
                let refused = try await server.send("GET", "/v1/patients/alice/changes", token: token)
                #expect(refused.status == 429)
                refused.expectProblem(429, "tooManyRequests")
                #expect(refused.headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1) }.map { $0 >= 1 } == true)
            }
            let metrics = try await server.send("GET", "/metrics")
            #expect(String(decoding: metrics.body, as: UTF8.self).contains(#"caresync_rate_limited_total{reason="failedAuth"} 2"#))
        }
    }

    @Test func concurrentBadTokensFromOneAddressGetNoMoreThanTheBurstOf401s() async throws {
        let frozen = ManualClock()
        try await TestServer.with(clock: frozen.serverClock, configure: { configuration in
            configuration.rateLimits.failedAuthPerMinute = 1
            configuration.rateLimits.failedAuthBurst = 5
        }) { (server: TestServer) async throws in
            // Thirty-two connections at once: each attempt is charged before its token is looked up.
            let replies = try await Concurrently.replies(32) { index in
                try await server.send("GET", "/v1/patients/alice/changes", token: "cs_\(String(format: "%016x", index))_bad")
            }
            #expect(replies.filter { $0.status == 401 }.count == 5)
            #expect(replies.filter { $0.status == 429 }.count == 27)
        }
    }

    @Test func goodTokensGiveBackTheirReservation() async throws {
        let frozen = ManualClock()
        try await TestServer.with(clock: frozen.serverClock, configure: { configuration in
            configuration.rateLimits.failedAuthPerMinute = 1
            configuration.rateLimits.failedAuthBurst = 2
        }) { (server: TestServer) async throws in
            for _ in 0..<20 {
                #expect(try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice).status == 200)
            }
            // Both failures are still there to spend: successes charged nothing.
            for _ in 0..<2 {
                #expect(try await server.send("GET", "/v1/patients/alice/changes", token: "cs_0000000000000000_bad").status == 401)
            }
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: "cs_0000000000000000_bad").status == 429)
        }
    }

    @Test func authenticationWithoutAClientAddressIsLimitedToo() async throws {
        let frozen = ManualClock()
        try await TestServer.with(clock: frozen.serverClock, configure: { configuration in
            configuration.rateLimits.failedAuthPerMinute = 1
            configuration.rateLimits.failedAuthBurst = 3
        }) { (server: TestServer) async throws in
            var statuses: [Int] = []
            for _ in 0..<5 {
                do {
                    _ = try await server.app.api.authenticate(authorization: "Bearer cs_0000000000000000_bad", peer: nil)
                    statuses.append(200)
                } catch let error as HTTPError {
                    statuses.append(error.status.code)
                }
            }
            #expect(statuses == [401, 401, 401, 429, 429])
        }
    }

    @Test func aBucketRefillsAtItsRateAndForgetsFullBuckets() {
        let clock = ManualClock()
        let limiter = RateLimiter(perSecond: 2, burst: 2, maxKeys: 2, clock: clock.serverClock)
        #expect(limiter.spend("a") == nil)
        #expect(limiter.spend("a") == nil)
        #expect(limiter.spend("a") == 1)
        #expect(limiter.wait(for: "a") == 1)
        clock.advance(by: 0.5)
        #expect(limiter.spend("a") == nil)
        #expect(limiter.spend("b") == nil)
        clock.advance(by: 10)
        // "a" and "b" have refilled: adding a third key forgets them instead of growing past the bound.
        #expect(limiter.spend("c") == nil)
        #expect(limiter.keyCount == 1)
        #expect(RateLimiter(perSecond: 0, burst: 1, clock: .system).spend("x") == nil)
    }

    @Test func spendsFromEightThreadsAtOnceAdmitExactlyTheBurst() async {
        // Time stands still: nothing is earned back, so exactly the burst of the 4,000 attempts passes. Under
        // ThreadSanitizer (scripts/ci-tsan.sh) this is also the limiter's race check: the threads share nothing else.
        let limiter = RateLimiter(perSecond: 1, burst: 1_000, clock: ManualClock().serverClock)
        let admitted = Shared(0)
        await onThreads(8) { _ in
            var mine = 0
            for _ in 0..<500 where limiter.spend("10.0.0.1") == nil { mine += 1 }
            admitted.update { $0 += mine }
        }
        #expect(admitted.current == 1_000)
        #expect(limiter.wait(for: "10.0.0.1") != nil)
    }

    @Test(arguments: [("127.0.0.1:5123", "127.0.0.1"), ("[::1]:5123", "[::1]"), ("10.0.0.1", "10.0.0.1")])
    func theAddressKeyIsTheHostWithoutThePort(peer: String, host: String) {
        #expect(PeerAddress.host(of: peer) == host)
    }
}
