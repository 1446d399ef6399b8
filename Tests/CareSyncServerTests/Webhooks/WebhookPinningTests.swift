import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// DNS rebinding: every attempt connects only to the addresses its own address check looked up, never to what a
/// second lookup of the name (libcurl's, the system's) would answer. The guard's resolver is injected, so the check
/// answers what the test says while the system answers something else or nothing.
@Suite struct WebhookPinningTests {
    /// A resolver that answers `answer(n)` for the n-th lookup (from 0) of `name` and fails any other, recording each.
    static func resolver(_ name: String, lookups: Shared<Int>,
                         answer: @escaping @Sendable (Int) -> [UInt8]) -> WebhookAddressGuard.Resolver {
        { host in
            guard host == name else { return .failure(.init("names a host that does not resolve (test)")) }
            return .success([answer(lookups.update { n in defer { n += 1 }; return n })])
        }
    }

    @Test func aNameTheSystemCannotResolveIsDeliveredToTheAddressTheCheckAnswered() async throws {
        if case .success(let found) = WebhookAddressGuard.system("hook.rebind.test") { Issue.record("resolves: \(found)"); return }
        let receiver = try WebhookReceiver()
        try await withScoped(receiver, close: { await $0.stop() }) { receiver in
            let lookups = Shared(0)
            let h = try WebhookDispatcherHarness(resolve: Self.resolver("hook.rebind.test", lookups: lookups) { _ in [127, 0, 0, 1] })
            try h.subscribe("http://hook.rebind.test:\(receiver.port)/hook")
            try h.change()
            try await h.running {
                try await Eventually.until(deadline: WebhookDeliveryTests.deadline) { try h.status()?.lastDeliveredSequence == 1 }
            }
            #expect(receiver.received.map(\.sequence) == [1])
            // The name is still the one the request carries (and, over HTTPS, the one SNI and the certificate check use).
            #expect(receiver.received.first?.headers["host"] == "hook.rebind.test:\(receiver.port)")
            #expect(lookups.current == 1)
        }
    }

    @Test func eachAttemptConnectsOnlyToTheAddressItsOwnLookupAnswered() async throws {
        // Two receivers on one port: 127.0.0.1 and 127.0.0.2. The name's answer alternates between them.
        let first = try WebhookReceiver()
        try await withScoped(first, close: { await $0.stop() }) { first in
            let second = try WebhookReceiver(host: "127.0.0.2", port: first.port)
            try await withScoped(second, close: { await $0.stop() }) { second in
                let lookups = Shared(0)
                let h = try WebhookDispatcherHarness(resolve: Self.resolver("hook.rebind.test", lookups: lookups) { n in
                    n % 2 == 0 ? [127, 0, 0, 1] : [127, 0, 0, 2]
                })
                try h.subscribe("http://hook.rebind.test:\(first.port)/hook")
                for patient in ["alice", "bob", "carol"] { try h.change(patient) }
                try await h.running {
                    try await Eventually.until(deadline: WebhookDeliveryTests.deadline) { try h.status()?.lastDeliveredSequence == 3 }
                }
                // One lookup per attempt, and each attempt went where its own lookup said.
                #expect(lookups.current == 3)
                #expect(first.received.map(\.sequence) == [1, 3])
                #expect(second.received.map(\.sequence) == [2])
            }
        }
    }

    @Test func aNameThatRebindsInsideNeverReachesTheInternalService() async throws {
        // The internal service listens on 127.0.0.1, where the system resolves `localhost`. The attacker's name answers
        // a public address to the check (192.0.2.1, nothing listens there) and a loopback one after that.
        let inside = try WebhookReceiver()
        try await withScoped(inside, close: { await $0.stop() }) { inside in
            let lookups = Shared(0)
            let h = try WebhookDispatcherHarness(allowPrivateAddresses: false, timeout: .seconds(1),
                                                 resolve: Self.resolver("localhost", lookups: lookups) { n in
                n == 0 ? [192, 0, 2, 1] : [127, 0, 0, 1]
            })
            try h.subscribe("http://localhost:\(inside.port)/hook")
            try h.change()
            try await h.running {
                // The first attempt is pinned to 192.0.2.1 and fails; the second check sees 127.0.0.1 and refuses.
                try await Eventually.until(deadline: WebhookDeliveryTests.deadline) {
                    try h.status()?.lastDeliveredSequence == 1 || (try h.webhooks.heads().first?.attempts ?? 0) >= 2
                }
            }
            #expect(inside.received.isEmpty)
            #expect(try h.status()?.lastDeliveredSequence == 0)
        }
    }

    @Test func theResolveEntryPinsANameAndLeavesLiteralsAlone() {
        let target = WebhookAddressGuard.Target(url: "https://hook.example:8443/x", host: "hook.example", port: 8443,
                                                addresses: [[93, 184, 216, 34], WebhookAddressGuard.literal("2606:4700::1")!])
        #expect(WebhookHTTPClient.resolveEntry(target) == "hook.example:8443:93.184.216.34,[2606:4700::1]")
        let literal = WebhookAddressGuard.Target(url: "https://[::1]/", host: "::1", port: 443, addresses: [WebhookAddressGuard.literal("::1")!])
        #expect(WebhookHTTPClient.resolveEntry(literal) == nil)
    }
}
