import Synchronization

/// Lets one write run at a time, in the order they asked, and tells how long the current one has
/// been running (the watchdog's test that writes are not stuck).
///
/// Reads never pass through it: they are answered on the bus thread from memory.
final class Writer: Sendable {
    private struct State {
        var busySince: ContinuousClock.Instant?
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// Runs `body` once every write before it has finished.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await acquire()
        defer { release() }
        return await body()
    }

    /// How long the write running now has been running, or nil when none runs.
    var busyFor: Duration? {
        state.withLock { state in state.busySince.map { clock.now - $0 } }
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = clock.now
            let granted = state.withLock { state in
                guard state.busySince == nil else {
                    state.waiting.append(continuation)
                    return false
                }
                state.busySince = now
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busySince = nil
                return nil
            }
            state.busySince = clock.now
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
