import Synchronization

/// permissiond's one writer: every change (Set, Reset, an outbox try) is a job in one `AsyncStream`,
/// drained in order by the one task that runs ``drain()``, so writes never overlap and commit in
/// the order they were submitted, on a thread of their own (``WriterThread``). It also tells how long the current job has been running (the
/// watchdog's test that writes are not stuck).
///
/// Reads never pass through it: they are answered on the bus thread from memory.
///
/// ``finish()`` closes the stream: jobs submitted before it still run, and ``drain()`` returns
/// after the last of them; jobs submitted after it are refused. The server finishes the writer
/// at shutdown and awaits ``drain()`` before the store closes.
package final class Writer: Sendable {
    /// One write: runs on the draining task, never concurrently with another.
    package typealias Job = @Sendable () async -> Void

    private let jobs: AsyncStream<Job>
    private let input: AsyncStream<Job>.Continuation
    private let busySince = Mutex<ContinuousClock.Instant?>(nil)
    private let clock = ContinuousClock()

    package init() {
        (jobs, input) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .unbounded)
    }

    /// Queues `job` after every job submitted before it.
    ///
    /// - Returns: false when the writer is finished and `job` will never run.
    @discardableResult
    package func submit(_ job: @escaping Job) -> Bool {
        if case .enqueued = input.yield(job) { return true }
        return false
    }

    /// Refuses new jobs; ``drain()`` returns once the jobs already queued have run.
    package func finish() {
        input.finish()
    }

    /// Runs the jobs one at a time, in order, until ``finish()`` and the last queued job ran (or
    /// the task is cancelled: then the jobs still queued are dropped).
    package func drain() async {
        await withTaskExecutorPreference(WriterThread.shared) {
            for await job in jobs {
                busySince.withLock { $0 = clock.now }
                await job()
                busySince.withLock { $0 = nil }
            }
        }
    }

    /// How long the job running now has been running, or nil when none runs.
    package var busyFor: Duration? {
        busySince.withLock { since in since.map { clock.now - $0 } }
    }
}
