import Dispatch

/// A task executor that runs jobs on an event loop's serial queue, so a handler started there
/// answers without a thread hop (used when `handlersOnEventLoops` is set).
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
