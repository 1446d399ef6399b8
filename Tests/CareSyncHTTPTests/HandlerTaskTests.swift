import Testing
@testable import CareSyncHTTP

/// A handler's task stays cancellable while it runs and is let go once it says it ended.
@Suite struct HandlerTaskTests {
    @Test func aHeldTaskIsCancelledAndOneThatEndedIsNoLongerHeld() async {
        let running = HandlerTask()
        let parked = Task { while !Task.isCancelled { await Task.yield() } }
        running.hold(parked)
        running.cancel()
        await parked.value  // returns only once cancelled

        let ended = HandlerTask()
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let finishing = Task<Void, Never> {
            for await _ in gate { break }
        }
        ended.hold(finishing)
        ended.end()
        ended.cancel()  // reaches nothing: the slot let go of the task
        #expect(!finishing.isCancelled)
        opener.yield()
        await finishing.value

        let late = HandlerTask()
        late.end()  // a task that ended before it was held is not kept
        let never = Task<Void, Never> {}
        late.hold(never)
        late.cancel()
        #expect(!never.isCancelled)
    }
}
