import Foundation
import CareSyncLocking

/// Wakes long polls when a change for their patient commits; waiting parks a continuation, not a thread.
///
/// Each patient has a generation that `signal` bumps after a commit. A reader notes the generation,
/// reads the feed, and if the page is empty waits for a generation above the one it noted — so a commit
/// between its read and its wait is never missed. A wait may carry a `WaitTag` (a token id) that `interrupt`
/// ends early, with the same no-miss rule: an interrupt after the tag was made ends the wait, parked or not yet.
public final class ChangeNotifier: Sendable {
    /// A waiter's name for `interrupt`, with the interrupt epoch seen when it was made.
    public struct WaitTag: Sendable {
        /// The name `interrupt` matches (the caller's token id).
        public let name: String
        let epoch: UInt64
    }
    private struct Waiter {
        let id: UInt64
        let tag: String?
        let continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var generations: [String: UInt64] = [:]
        var waiters: [String: [Waiter]] = [:]
        var nextID: UInt64 = 0
        var count = 0
        /// Waits begun but not yet parked or answered.
        var pending: Set<UInt64> = []
        /// Pending waits cancelled before they parked: they must not park.
        var cancelledEarly: Set<UInt64> = []
        /// Interrupts so far: a wait whose tag saw an older epoch does not park.
        var interrupts: UInt64 = 0
    }
    private let state = Locked(State())
    private let observers = Locked<[@Sendable (String) -> Void]>([])
    private let reachObservers = Locked<[@Sendable (String?) -> Void]>([])
    private let erasureObservers = Locked<[@Sendable (String?) -> Void]>([])
    private let timerQueue = DispatchQueue(label: "caresync.longpoll.timers")

    /// A notifier with no waiters.
    public init() {}

    /// The patient's current generation.
    public func generation(of patient: String) -> UInt64 { state.withLock { $0.generations[patient] ?? 0 } }

    /// How many requests are parked now.
    public var waiterCount: Int { state.withLock { $0.count } }

    /// Records a commit for `patient` and wakes every waiter on it.
    public func signal(_ patient: String) {
        let woken: [Waiter] = state.withLock { s in
            s.generations[patient, default: 0] &+= 1
            let list = s.waiters.removeValue(forKey: patient) ?? []
            s.count -= list.count
            return list
        }
        for w in woken { w.continuation.resume(returning: true) }
        for observer in observers.withLock({ $0 }) { observer(patient) }
    }

    /// Calls `observer` after every `signal`, with its patient (what wakes the webhook dispatcher). It must return at once.
    public func onSignal(_ observer: @escaping @Sendable (String) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// A tag for waits that `interrupt(name)` must end; make it before checking what the interrupt is about.
    /// With `since`, an epoch read earlier (`interruptEpoch`): the tag also counts the interrupts after that read.
    public func tag(_ name: String, since epoch: UInt64? = nil) -> WaitTag {
        WaitTag(name: name, epoch: epoch ?? interruptEpoch)
    }

    /// Interrupts so far; read it before authenticating to make a tag (`tag(_:since:)`) that misses none after.
    public var interruptEpoch: UInt64 { state.withLock { $0.interrupts } }

    /// Ends the waits tagged `name` (false) without a change (a revoked token); a wait whose tag is older than
    /// this call and that has not parked yet returns at once instead of parking.
    public func interrupt(_ name: String) {
        let woken: [Waiter] = state.withLock { s in
            s.interrupts &+= 1
            var out: [Waiter] = []
            for (patient, list) in s.waiters {
                let (hit, rest) = (list.filter { $0.tag == name }, list.filter { $0.tag != name })
                guard !hit.isEmpty else { continue }
                out += hit
                s.waiters[patient] = rest.isEmpty ? nil : rest
            }
            s.count -= out.count
            return out
        }
        for w in woken { w.continuation.resume(returning: false) }
    }

    /// Records that reach to `patient` ended, on this instance or another (taken off a care team, or erased): the reach
    /// observers forget what they kept of the patient (proven reach, pages read ahead), the interrupt epoch moves (a wait
    /// tagged before does not park, a page read before is not answered after), and the patient's parked waits wake
    /// (false) to check their reach again. nil: reach may have ended for any patient (a listener that was away), so
    /// observers forget what they kept of every patient; parked waits then check at their next wake.
    public func reachEnded(_ patient: String?) {
        for observer in reachObservers.withLock({ $0 }) { observer(patient) }
        interrupt("reach-ended " + (patient ?? ""))
        guard let patient else { return }
        let woken: [Waiter] = state.withLock { s in
            let list = s.waiters.removeValue(forKey: patient) ?? []
            s.count -= list.count
            return list
        }
        for w in woken { w.continuation.resume(returning: false) }
    }

    /// Calls `observer` with the patient of every `reachEnded` and `erased` (nil: any patient). It must return at once.
    public func onReachEnded(_ observer: @escaping @Sendable (String?) -> Void) {
        reachObservers.withLock { $0.append(observer) }
    }

    /// Records that `patient` was erased, on this instance or another: reach to the patient ends (`reachEnded`), then
    /// the erasure observers forget what else they kept of the patient. nil: erasures may have been missed.
    public func erased(_ patient: String?) {
        reachEnded(patient)
        for observer in erasureObservers.withLock({ $0 }) { observer(patient) }
    }

    /// Calls `observer` with the patient of every `erased` (nil: any patient). It must return at once.
    public func onErasure(_ observer: @escaping @Sendable (String?) -> Void) {
        erasureObservers.withLock { $0.append(observer) }
    }

    /// Wakes every waiter (shutdown): they answer with what they have.
    public func wakeAll() {
        let woken: [Waiter] = state.withLock { s in
            let all = s.waiters.values.flatMap { $0 }
            s.waiters = [:]; s.count = 0
            return all
        }
        for w in woken { w.continuation.resume(returning: false) }
    }

    /// Waits until the patient's generation passes `seen` (true), or `timeout` elapses or the task is
    /// cancelled (false). A cancelled wait frees its place at once (a long poll whose client went away).
    /// With a `tag`, an `interrupt` of its name since the tag was made also ends it (false).
    public func wait(for patient: String, after seen: UInt64, timeout: TimeInterval, tag: WaitTag? = nil) async -> Bool {
        let id = state.withLock { s in s.nextID &+= 1; s.pending.insert(s.nextID); return s.nextID }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let parked: Bool? = state.withLock { s in
                    s.pending.remove(id)
                    if s.cancelledEarly.remove(id) != nil { return false }
                    if (s.generations[patient] ?? 0) != seen { return true }
                    if let tag, tag.epoch != s.interrupts { return false }
                    s.waiters[patient, default: []].append(Waiter(id: id, tag: tag?.name, continuation: continuation))
                    s.count += 1
                    return nil
                }
                if let answer = parked { continuation.resume(returning: answer); return }
                timerQueue.asyncAfter(deadline: .now() + timeout) { [weak self] in
                    self?.expire(patient: patient, id: id)
                }
            }
        } onCancel: {
            if !expire(patient: patient, id: id) {
                state.withLock { s in if s.pending.contains(id) { s.cancelledEarly.insert(id) } }
            }
        }
    }

    /// Answers a parked waiter with false; false when it was not parked (already answered, or not yet parked).
    @discardableResult
    private func expire(patient: String, id: UInt64) -> Bool {
        let waiter: Waiter? = state.withLock { s in
            guard var list = s.waiters[patient], let i = list.firstIndex(where: { $0.id == id }) else { return nil }
            let w = list.remove(at: i)
            s.waiters[patient] = list.isEmpty ? nil : list
            s.count -= 1
            return w
        }
        waiter?.continuation.resume(returning: false)
        return waiter != nil
    }
}
