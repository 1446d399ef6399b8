import CareSyncTestSupport
import Testing
import HTTPTypes
@testable import CareSyncHTTP

/// The decision at accept, alone: the cap, the share per client address and the probe reserve.
@Suite struct ConnectionAdmissionTests {
    static func admission(cap: Int = 10, perAddress: Int = 3, reserved: Int = 2) -> ConnectionAdmission {
        ConnectionAdmission(configuration: HTTPServer.Configuration(
            maxConnections: cap, maxConnectionsPerAddress: perAddress, reservedProbeConnections: reserved))
    }

    @Test func theInFlightLimitIsTheConnectionLimitUnlessSet() {
        var configuration = HTTPServer.Configuration(maxConnections: 20_000)
        #expect(configuration.requestsInFlightLimit == 20_000)
        configuration.maxConnections = 50_000
        #expect(configuration.requestsInFlightLimit == 50_000)
        configuration.maxConcurrentRequests = 60_000
        #expect(configuration.requestsInFlightLimit == 60_000)
    }

    @Test func anAddressPastItsShareIsRefusedWith429UntilOneOfItsConnectionsCloses() {
        let admission = Self.admission()
        for n in 0..<3 { #expect(admission.decide(host: "10.0.0.1", count: n) == .admit) }
        guard case .refuse(let error, .address) = admission.decide(host: "10.0.0.1", count: 3) else {
            Issue.record("a fourth connection from one address was admitted")
            return
        }
        #expect(error.status == .tooManyRequests && error.code == .tooManyRequests && error.headers[.retryAfter] != nil)
        #expect(admission.decide(host: "10.0.0.2", count: 3) == .admit)
        admission.release(host: "10.0.0.1")
        #expect(admission.decide(host: "10.0.0.1", count: 4) == .admit)
        #expect(admission.count(from: "10.0.0.1") == 3)
    }

    @Test func admissionsAndReleasesFromEightThreadsAtOnceLeaveNoCountBehind() async {
        // The accept queue decides while the loops release: here eight threads do both on four addresses. Under
        // ThreadSanitizer (scripts/ci-tsan.sh) this is also the admission's race check.
        let admission = Self.admission(cap: 1_000, perAddress: 1_000)
        let refused = Shared(0)
        await onThreads(8) { thread in
            let host = "10.0.0.\(thread % 4)"
            for _ in 0..<500 {
                if admission.decide(host: host, count: 0) == .admit { admission.release(host: host) } else { refused.update { $0 += 1 } }
            }
        }
        #expect(refused.current == 0)
        #expect((0..<4).allSatisfy { admission.count(from: "10.0.0.\($0)") == 0 })
    }

    @Test func theLastSlotsAreForProbesAndTheCapIsRefusedWith503() {
        let admission = Self.admission(perAddress: 0)
        #expect(admission.decide(host: "a", count: 7) == .admit)
        #expect(admission.decide(host: "a", count: 8) == .probesOnly)
        #expect(admission.decide(host: "a", count: 9) == .probesOnly)
        #expect(admission.decide(host: "a", count: 10) == .refuse(HTTPError.unavailable("Too many connections."), .cap))
    }

    @Test func probePathsAreGETOrHEADOfAListedPathWithAnyQuery() {
        let configuration = HTTPServer.Configuration(probePaths: ["/healthz"])
        #expect(configuration.isProbe(RequestHead(method: .get, target: "/healthz")))
        #expect(configuration.isProbe(RequestHead(method: .head, target: "/healthz?verbose=1")))
        #expect(!configuration.isProbe(RequestHead(method: .post, target: "/healthz")))
        #expect(!configuration.isProbe(RequestHead(method: .get, target: "/healthz/x")))
        #expect(!configuration.isProbe(RequestHead(method: .get, target: "/v1/patients/a/changes")))
    }

    @Test func hostsDropThePort() {
        #expect(PeerAddress.host(of: "127.0.0.1:5123") == "127.0.0.1")
        #expect(PeerAddress.host(of: "[::1]:5123") == "[::1]")
        #expect(PeerAddress.host(of: "socketpair") == "socketpair")
    }
}
