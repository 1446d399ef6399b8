import Foundation
import Logging
import Testing
@testable import CareSyncServer

@Suite struct OpenFileLimitTests {
    @Test func aLowSoftLimitIsRaisedToCoverTheConnectionsAndTheReserve() {
        let limit = OpenFileLimit(soft: 1024, hard: 524_288)
        #expect(limit.raisedSoftLimit(for: 1024) == 1024 + OpenFileLimit.reserve)
        #expect(limit.raisedSoftLimit(for: 10_000) == 10_000 + OpenFileLimit.reserve)
    }

    @Test func theHardLimitCapsTheRaise() {
        #expect(OpenFileLimit(soft: 1024, hard: 2048).raisedSoftLimit(for: 4096) == 2048)
    }

    @Test func aSoftLimitThatIsEnoughIsLeftAlone() {
        #expect(OpenFileLimit(soft: 20_000, hard: 20_000).raisedSoftLimit(for: 1024) == nil)
        #expect(OpenFileLimit(soft: 1088, hard: 4096).raisedSoftLimit(for: 1024) == nil)
    }

    @Test func aLoweredProcessLimitIsRaisedAgainForTheConfiguredConnections() throws {
        let before = try #require(OpenFileLimit.current())
        let ceiling = min(before.hard, 1 << 20)
        try #require(ceiling > 4096, "this machine's hard nofile limit is too low to lower the soft one safely")
        // Lowered by a little only: tests running beside this one keep plenty of descriptors.
        var lowered = rlimit(rlim_cur: rlim_t(ceiling - 512), rlim_max: rlim_t(before.hard))
        try #require(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &lowered) == 0)
        defer {
            var restored = rlimit(rlim_cur: rlim_t(before.soft), rlim_max: rlim_t(before.hard))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &restored)
        }
        let connections = Int(ceiling - OpenFileLimit.reserve)
        let after = try #require(OpenFileLimit.ensureRoom(for: connections, logger: Logger(label: "test")))
        #expect(after.soft == ceiling)
        #expect(OpenFileLimit.current()?.soft == ceiling)
    }
}
