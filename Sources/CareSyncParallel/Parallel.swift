import Dispatch
import Foundation

/// Work split over the machine's cores, for the few answers large enough to pay for it (feed reads and pages, gzip).
public enum Parallel {
    /// The cores work is spread over.
    public static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// `body(0) … body(count - 1)` run concurrently (at once when `count` is 1), results in index order.
    public static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return count == 1 ? [body(0)] : [] }
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            let shared = Slots(slots: slots)
            DispatchQueue.concurrentPerform(iterations: count) { index in shared.slots[index] = body(index) }
        }
        return results.map { $0! }
    }

    /// The result slots, shared by the concurrent iterations: each writes only its own.
    private struct Slots<T>: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<T?>
    }
}
