import Foundation

/// Runs blocking test work (sockets, child processes, long synchronous checks) on a thread of its own, so it never holds one of the few
/// cooperative-pool threads that in-process servers of other, parallel tests answer on.
public func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs `body(0)` … `body(count - 1)` at the same moment, each on a thread of its own (released together once all
/// have started), and returns when every one has ended. Unlike `concurrentPerform`, which runs its iterations on the
/// calling thread when the pool is busy, the calls really overlap: a race check under ThreadSanitizer.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let ended = DispatchGroup()
        for index in 0..<count {
            ended.enter()
            Thread { started.signal(); go.wait(); body(index); ended.leave() }.start()
        }
        Thread {
            for _ in 0..<count { started.wait() }
            for _ in 0..<count { go.signal() }
            ended.wait()
            continuation.resume()
        }.start()
    }
}
