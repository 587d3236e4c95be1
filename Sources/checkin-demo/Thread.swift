#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a detached POSIX thread of its own (for work that must block, off the task pool).
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context)
    if result != 0 {
        // No thread: drop the work rather than block the caller (the bus thread) with it.
        Unmanaged<Box>.fromOpaque(context).release()
        return
    }
    pthread_detach(thread)
}
