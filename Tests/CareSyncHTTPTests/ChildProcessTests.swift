import CareSyncTestSupport
import Foundation
import Testing

/// The tests' way to run programs: exit statuses and signals as Foundation reported them, pipes both ways, and no
/// descriptor of the test process leaking into the child, however many are open.
@Suite struct ChildProcessTests {
    @Test func theChildSeesOnlyItsStandardStreamsWithThousandsOpen() async throws {
        // As many descriptors as a parallel suite's sockets (Foundation's `Process` died scanning this many), none
        // of them close-on-exec, so only the spawn's own closing keeps them from the child.
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 8_192 {
            // Room for these beside the parallel suite's own, as `caresync serve` makes at its start.
            limit.rlim_cur = min(8_192, limit.rlim_max)
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let held = (0..<1_500).map { _ in open("/dev/null", O_RDONLY) }
        defer { held.forEach { close($0) } }
        #expect(held.allSatisfy { $0 >= 0 })
        try await onDedicatedThread {
            for _ in 0..<20 {
                let (ended, output) = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
                #expect(ended == .init(reason: .exit, status: 0))
                let seen = String(decoding: output, as: UTF8.self).split(separator: "\n")
                try #require(seen.count == 3, "the child had \(seen.count) descriptors open")
                #expect(seen == ["0", "1", "2"])
            }
        }
    }

    @Test func exitStatusesAndSignalsAreTold() async throws {
        try await onDedicatedThread {
            #expect(try ChildProcess.run("/bin/sh", ["-c", "exit 7"]).termination == .init(reason: .exit, status: 7))
            #expect(try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"]).termination == .init(reason: .uncaughtSignal, status: SIGTERM))
            let sleeper = try ChildProcess("/bin/sleep", ["30"])
            #expect(sleeper.isRunning)
            sleeper.send(SIGKILL)
            #expect(sleeper.waitUntilExit() == .init(reason: .uncaughtSignal, status: SIGKILL))
            #expect(!sleeper.isRunning && sleeper.waitUntilExit().status == SIGKILL)
        }
    }

    @Test func inputLargerThanAPipeComesBackWhole() async throws {
        let input = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let (ended, output) = try await onDedicatedThread { try ChildProcess.run("/bin/cat", input: input) }
        #expect(ended.status == 0)
        #expect(output == input)
    }

    @Test func aChildThatReadsNoInputEndsTheWriteNotTheTests() async throws {
        // More than a pipe holds, to a child that never reads it: the write fails with EPIPE, no SIGPIPE kills us.
        let input = Data(repeating: 7, count: 1_000_000)
        let (ended, output) = try await onDedicatedThread { try ChildProcess.run("/bin/true", input: input) }
        #expect(ended == .init(reason: .exit, status: 0) && output.isEmpty)
    }

    @Test func theEnvironmentGivenIsTheWholeEnvironment() async throws {
        let (_, output) = try await onDedicatedThread { try ChildProcess.run("/usr/bin/env", environment: ["A": "b c"]) }
        #expect(String(decoding: output, as: UTF8.self) == "A=b c\n")
    }

    @Test func aMissingProgramIsAnError() {
        #expect(throws: ChildProcess.SpawnFailed.self) { try ChildProcess("/nonexistent/program") }
    }
}
