import CareSyncLocking
import Foundation

/// The tests' one way to run a program: `posix_spawn` with the child's other descriptors closed, in place of
/// Foundation's `Process`.
///
/// Foundation's `Process.run()` on Linux (swift-corelibs-foundation up to Swift 6.3) finds the highest open descriptor
/// by copying 256 bytes of each `/proc/self/fd` entry's name, past the end of short records: with a thousand or more
/// descriptors open (a parallel suite's sockets) a record near the end of glibc's buffer reads into an unmapped page
/// and the whole test process dies with SIGSEGV. This spawns the program directly and closes everything above
/// standard error in the child with glibc's `closefrom` file action.
public final class ChildProcess: Sendable {
    /// What one of the child's standard streams is connected to.
    public enum Stream: Sendable {
        /// The test process's own stream.
        case inherit
        /// `/dev/null`.
        case null
        /// A new pipe, whose other end is `standardInput`, `standardOutput` or `standardError`.
        case pipe
    }

    /// How the child ended, as Foundation reports it: an exit status, or the signal that killed it.
    public struct Termination: Sendable, Equatable {
        /// `exit` or `uncaughtSignal`.
        public enum Reason: Sendable { case exit, uncaughtSignal }
        /// Whether the child exited or was killed.
        public let reason: Reason
        /// The exit status, or the signal's number.
        public let status: Int32

        /// An ending, for comparing with what `waitUntilExit` told.
        public init(reason: Reason, status: Int32) { (self.reason, self.status) = (reason, status) }
    }

    /// The spawn failed (`posix_spawn`'s or a pipe's error number).
    public struct SpawnFailed: Error, CustomStringConvertible {
        /// The program.
        public let executable: String
        /// The error number.
        public let code: Int32
        public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The write end of the child's standard input, when it is a pipe.
    public let standardInput: FileHandle?
    /// The read end of the child's standard output, when it is a pipe.
    public let standardOutput: FileHandle?
    /// The read end of the child's standard error, when it is a pipe.
    public let standardError: FileHandle?
    private let ended = Locked<Termination?>(nil)

    /// Starts `executable` (a path; `/usr/bin/env` finds a program on `PATH`) with `arguments`, in `environment`
    /// (nil: the test process's own).
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                standardInput input: Stream = .inherit, standardOutput output: Stream = .inherit,
                standardError error: Stream = .inherit) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [FileHandle?] = []
        var childEnds: [Int32] = []
        defer { childEnds.forEach { _ = close($0) } }
        for (target, stream) in [(Int32(0), input), (1, output), (2, error)] {
            switch stream {
            case .inherit:
                parentEnds.append(nil)
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                parentEnds.append(nil)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw SpawnFailed(executable: executable, code: errno) }
                ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
                let (parent, child) = target == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
                childEnds.append(child)
                parentEnds.append(FileHandle(fileDescriptor: parent, closeOnDealloc: true))
                posix_spawn_file_actions_adddup2(&actions, child, target)
            }
        }
        Self.closeTheRest(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var everySignal = sigset_t(), noSignal = sigset_t()
        sigfillset(&everySignal)
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { arguments in
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { environment in
                    posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, environment.baseAddress!)
                }
            }
            return posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, environ)
        }
        guard result == 0 else { throw SpawnFailed(executable: executable, code: result) }
        processIdentifier = pid
        (standardInput, standardOutput, standardError) = (parentEnds[0], parentEnds[1], parentEnds[2])
    }

    /// Whether the child still runs (reaps it once it has ended).
    public var isRunning: Bool { reapIfEnded() == nil }

    /// Blocks until the child ends and returns how.
    @discardableResult
    public func waitUntilExit() -> Termination {
        while true {
            if let termination = reapIfEnded() { return termination }
            // Waits without reaping, so the status is taken once, under the lock, by whichever caller comes first.
            var info = siginfo_t()
            _ = waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT)
        }
    }

    /// `waitUntilExit` on a thread of its own, never on the cooperative pool that in-process servers of parallel
    /// tests answer on.
    @discardableResult
    public func exited() async throws -> Termination {
        try await onDedicatedThread { self.waitUntilExit() }
    }

    /// Sends `signal` to the child if it still runs.
    public func send(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Sends SIGTERM if the child still runs.
    public func terminate() { send(SIGTERM) }

    /// Runs a program to its end, feeding it `input` and collecting its standard output (standard error discarded).
    public static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                           input: Data? = nil) throws -> (termination: Termination, output: Data) {
        let child = try ChildProcess(executable, arguments, environment: environment,
                                     standardInput: input == nil ? .null : .pipe, standardOutput: .pipe,
                                     standardError: .null)
        if let input, let stdin = child.standardInput {
            // On a thread of its own: a child that answers while it reads would otherwise fill its output pipe. The
            // thread blocks SIGPIPE, so a child that stops reading ends the write with EPIPE, not the test process.
            Thread {
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                try? stdin.write(contentsOf: input)
                try? stdin.close()
            }.start()
        }
        let output = child.standardOutput!.readDataToEndOfFile()
        return (child.waitUntilExit(), output)
    }

    private func reapIfEnded() -> Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return nil }
            let signal = status & 0x7f
            ended = signal == 0 ? Termination(reason: .exit, status: (status >> 8) & 0xff)
                                : Termination(reason: .uncaughtSignal, status: signal)
            return ended
        }
    }

    /// Adds glibc's `closefrom(3)` action (2.34 and later; the Swift overlay does not declare it, so it is looked up).
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            preconditionFailure("glibc 2.34 or later is needed: posix_spawn_file_actions_addclosefrom_np is missing")
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
