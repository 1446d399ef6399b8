import Dispatch
import Testing
import CareSyncLocking

/// The one lock box: every change made under contention is kept, and a body's error leaves the lock free.
@Suite struct LockedTests {
    private struct Refused: Error, Equatable {}

    @Test func incrementsFromManyThreadsAreAllKept() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func aThrowingBodyLeavesTheValueItChangedAndTheLockFree() {
        let value = Locked([1])
        #expect(throws: Refused()) {
            try value.withLock { (list: inout [Int]) throws(Refused) in
                list.append(2)
                throw Refused()
            }
        }
        // The lock was given back: taking it again does not wait forever.
        #expect(value.withLock { $0 } == [1, 2])
    }
}
