#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached POSIX thread running `body` (no Foundation needed), for work that must block
/// off the task pool.
/// - Throws: ``SystemdError`` when no thread can be created; `body` does not run then.
package func spawnDetachedThread(_ body: @escaping @Sendable () -> Void) throws(SystemdError) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    if result != 0 {
        Unmanaged<Box>.fromOpaque(context).release()
        throw SystemdError(code: .init(rawValue: result), operation: "pthread_create")
    }
    pthread_detach(thread)
}

/// Blocks the calling thread for good: `pause()` returns only for a caught signal, and the loop
/// waits again. What test hooks use to stand for a deadlock or a stall the watchdog must end.
///
/// Typed `Never`, so the compiler proves no path returns (a loop that could end does not compile).
package func blockForever() -> Never {
    while true { pause() }
}
