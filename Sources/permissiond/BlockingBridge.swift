import Dispatch
import Synchronization

/// Runs async work from a thread that must not return before it is done: the bus thread, whose
/// method handlers are synchronous.
///
/// The calling thread (never one of Swift's cooperative threads: the bus loop runs on its own
/// POSIX thread) blocks on a semaphore while a task runs `operation` on the cooperative pool.
/// `operation` must not need the calling thread, e.g. it must not call into the bus connection
/// whose loop is blocked here; permissiond's systemd calls use a second connection for that reason.
func awaitBlocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    Task {
        box.complete(await operation())
    }
    return box.wait()
}

/// One result handed from a task to a blocked thread.
private final class ResultBox<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func complete(_ result: T) {
        value.withLock { $0 = result }
        done.signal()
    }

    func wait() -> T {
        done.wait()
        return value.withLock { $0.take()! }
    }
}
