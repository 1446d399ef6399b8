import CareSyncLocking

/// The task answering a connection's request (or pumping its streamed body), which the connection cancels when
/// the client goes away first. The task lets go of its own handle as its last step, so it is freed on the thread
/// that ran it, its memory still in that core's cache, instead of on the event loop that sends the answer.
final class HandlerTask: Sendable {
    private let state = Locked<(task: Task<Void, Never>?, ended: Bool)>((nil, false))

    /// Keeps `task` for `cancel`, unless it ended already.
    func hold(_ task: Task<Void, Never>) {
        state.withLock { if !$0.ended { $0.task = task } }
    }

    /// Called by the task itself as its last step: from now on there is nothing to cancel.
    func end() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.ended = true
            defer { state.task = nil }
            return state.task
        }
        _ = task  // released here, on the task's own thread
    }

    /// Cancels the task if it still runs.
    func cancel() {
        state.withLock { $0.task }?.cancel()
    }
}
