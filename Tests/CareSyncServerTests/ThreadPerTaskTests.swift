import CareSyncTestSupport
import Dispatch
import Testing
@testable import CareSyncServer

/// Blocking tasks (webhook transfers) each get a thread of their own however many block at once, and threads are reused.
@Suite struct ThreadPerTaskTests {
    @Test func fortyTasksThatBlockUntilAllFortyRunAllRun() async {
        let threads = ThreadPerTask()
        let (count, arrived, finished) = (40, DispatchGroup(), DispatchGroup())
        let met = Shared(0)
        for _ in 0..<count { arrived.enter(); finished.enter() }
        for _ in 0..<count {
            threads.run {
                arrived.leave()
                // On a pool of fewer threads than tasks, the first ones would wait here for the rest in vain.
                if arrived.wait(timeout: .now() + 60) == .success { met.update { $0 += 1 } }
                finished.leave()
            }
        }
        await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }
        #expect(met.current == count)
        #expect(threads.threadsStarted == count)
    }

    @Test func tasksOneAfterAnotherShareOneThread() async throws {
        let threads = ThreadPerTask(keepAlive: 600)  // no thread ends for idling while the test runs, however loaded
        for _ in 0..<5 {
            await withCheckedContinuation { done in threads.run { done.resume() } }
            // The thread goes back to waiting just after the task returned.
            try await Eventually.until { threads.idleThreads == 1 }
        }
        #expect(threads.threadsStarted == 1)
    }
}
