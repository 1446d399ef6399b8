/// A task executor that runs jobs on an event loop's thread, so a handler started there
/// answers without a thread hop (used when `handlersOnEventLoops` is set).
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    /// The loop owns its executor.
    private unowned let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
