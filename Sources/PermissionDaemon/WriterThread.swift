import Dispatch
import Synchronization
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The thread the ``Writer`` drains on: a task executor of one POSIX thread of its own, so the
/// writes' blocking work (SQLite's commit and its fsync, the store's reads) never holds one of the
/// cooperative pool's threads (two on a two-core machine), which the bus callers' tasks need.
///
/// The writer's task prefers this executor (`withTaskExecutorPreference`), so its jobs, and every
/// nonisolated async function they call, run here; while a job awaits a bus call (an
/// `sd_bus_call_async` completed by the link's loop thread) the thread is free. The bus calls
/// themselves never block a thread: they are sent asynchronously and completed by a loop.
package final class WriterThread: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let waiting = DispatchSemaphore(value: 0)
    /// The thread (`pthread_self`), once it runs.
    private let threadID = Atomic<UInt>(0)

    /// The one writer thread of the process, started on first use and kept for its life.
    package static let shared: WriterThread = {
        let executor = WriterThread()
        do throws(SystemdError) {
            try spawnDetachedThread { executor.serve() }
        } catch {
            fatalError("permissiond cannot start its writer thread: \(error)")
        }
        return executor
    }()

    private init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    /// Whether the caller runs on this executor's thread.
    package var isCurrent: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Runs the jobs given to it, in order, for good (typed `Never`: no path may end the thread).
    private func serve() -> Never {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        while true {
            waiting.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
