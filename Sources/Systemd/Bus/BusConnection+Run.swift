import CSystemd
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The run loop's wake-up eventfd and flags, shared between the loop thread and callers of `stop()`.
final class RunLoopState: Sendable {
    let wakeFD: CInt
    let stopRequested = Atomic<Bool>(false)
    let isRunning = Atomic<Bool>(false)
    /// A loop thread was started and has not begun running yet: asynchronous calls may be sent.
    let isStarting = Atomic<Bool>(false)
    /// The pthread running the loop (0 when none): its own bus use must not wake it again.
    let loopThread = Atomic<UInt>(0)
    /// Calls still waiting for the loop to complete them (``BusConnection/callAsync``).
    private let waiting = Mutex<[ObjectIdentifier: BusCallInFlight]>([:])

    init() throws(SystemdError) {
        wakeFD = try sysCall("eventfd") { csystemd_eventfd(0) }
    }

    deinit { close(wakeFD) }

    /// Interrupts the loop's poll so it processes again (no-op when no loop runs).
    func wake() {
        guard isRunning.load(ordering: .acquiring) else { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    func register(_ call: BusCallInFlight) {
        waiting.withLock { $0[ObjectIdentifier(call)] = call }
    }

    func unregister(_ call: BusCallInFlight) {
        _ = waiting.withLock { $0.removeValue(forKey: ObjectIdentifier(call)) }
    }

    /// Takes every waiting call out of the registry (the loop ended: they are failed).
    func takeWaitingCalls() -> [BusCallInFlight] {
        waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
    }

    /// Slots of calls sent and not yet released (``BusCallInFlight``).
    let callSlots = Atomic<Int>(0)

    var waitingCount: Int { waiting.withLock { $0.count } }

    /// A loop is about to run: asynchronous calls may be sent before it starts.
    func expectLoop() {
        isStarting.store(true, ordering: .releasing)
    }

    func drain() {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, 8)
    }
}

extension BusConnection {
    /// Processes messages on the calling thread until ``stop()`` is called or the connection drops.
    ///
    /// Method and signal handlers run on this thread. A ``stop()`` issued before the loop starts
    /// makes it return at once.
    /// - Throws: ``SystemdError`` when the connection fails (e.g. `ECONNRESET` when the bus goes away)
    ///   or if a loop is already running on this connection (`EBUSY`).
    package func runBlocking() throws(SystemdError) {
        try runBlocking(heartbeat: nil)
    }

    /// Like ``runBlocking()``, and calls `heartbeat.beat` on the loop thread at least every
    /// `heartbeat.interval` while the loop is healthy: a handler that never returns, or a loop
    /// stuck anywhere, stops the beats. The daemons ping systemd's watchdog from here, so the
    /// watchdog proves that requests are being served, not only that some thread is alive.
    package func runBlocking(heartbeat: LoopHeartbeat?) throws(SystemdError) {
        guard loop.isRunning.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { throw SystemdError(code: .init(rawValue: EBUSY), operation: "BusConnection.run", target: "already running") }
        loop.loopThread.store(BusConnection.currentThreadID, ordering: .releasing)
        loop.isStarting.store(false, ordering: .releasing)
        defer {
            loop.loopThread.store(0, ordering: .releasing)
            loop.isRunning.store(false, ordering: .releasing)
            loop.stopRequested.store(false, ordering: .releasing)
            abandonWaitingCalls()
        }
        let clock = ContinuousClock()
        var nextBeat = clock.now
        while !loop.stopRequested.load(ordering: .acquiring) {
            if let heartbeat, clock.now >= nextBeat {
                heartbeat.beat()
                nextBeat = clock.now + heartbeat.interval
            }
            let wait = try withBus { (bus) throws(SystemdError) in try Self.processAll(bus) }
            var timeout = wait.timeoutMilliseconds
            if heartbeat != nil {
                let untilBeat = max(0, (nextBeat - clock.now) / .milliseconds(1))
                let beatTimeout = CInt(clamping: Int(untilBeat.rounded(.up)))
                timeout = timeout < 0 ? beatTimeout : min(timeout, beatTimeout)
            }
            var fds = [
                pollfd(fd: wait.fd, events: Int16(wait.events), revents: 0),
                pollfd(fd: loop.wakeFD, events: Int16(POLLIN), revents: 0),
            ]
            _ = try sysCall("poll", on: "the bus connection") { poll(&fds, 2, timeout) }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                // The peer closed the socket: let sd-bus notice and report the disconnect.
                _ = try withBus { (bus) throws(SystemdError) in try Self.processAll(bus) }
                if !isOpen { throw SystemdError(code: .init(rawValue: ECONNRESET), operation: "BusConnection.run", target: "the bus closed the connection") }
            }
            if fds[1].revents != 0 { loop.drain() }
        }
    }

    /// Runs the loop on a dedicated thread until the task is cancelled, ``stop()`` is called or the
    /// connection drops. Handlers run on that thread, not on the caller's executor.
    /// - Throws: ``SystemdError`` as ``runBlocking()`` does; cancellation returns normally.
    package func run(heartbeat: LoopHeartbeat? = nil) async throws(SystemdError) {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, SystemdError>, Never>) in
                do throws(SystemdError) {
                    try startLoopThread(heartbeat: heartbeat) { error in
                        continuation.resume(returning: error.map { .failure($0) } ?? .success(()))
                    }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            self.stop()
        }
        try result.get()
    }

    /// Starts ``runBlocking()`` on a new thread and returns at once (for code that is not async).
    ///
    /// - Parameter onExit: Runs on that thread when the loop ends: nil after ``stop()``, else the error.
    package func startLoopThread(
        heartbeat: LoopHeartbeat? = nil, onExit: @escaping @Sendable (SystemdError?) -> Void = { _ in }
    ) throws(SystemdError) {
        loop.isStarting.store(true, ordering: .releasing)
        do throws(SystemdError) {
            try spawnDetachedThread {
                do throws(SystemdError) {
                    try self.runBlocking(heartbeat: heartbeat)
                    onExit(nil)
                } catch {
                    self.loop.isStarting.store(false, ordering: .releasing)
                    onExit(error)
                }
            }
        } catch {
            loop.isStarting.store(false, ordering: .releasing)
            abandonWaitingCalls()
            throw error
        }
    }

    /// Whether the connection is still open (false once the bus or peer closed it).
    package var isOpen: Bool {
        withBus { bus in sd_bus_is_open(bus) > 0 }
    }

    /// Whether a loop is processing this connection right now.
    package var isRunning: Bool { loop.isRunning.load(ordering: .acquiring) }

    /// Whether a loop processes this connection now or is about to (its thread was started).
    var hasLoop: Bool { loop.isRunning.load(ordering: .acquiring) || loop.isStarting.load(ordering: .acquiring) }

    /// Makes the running (or the next) loop return; safe from any thread.
    package func stop() {
        loop.stopRequested.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(loop.wakeFD, &one, 8)
    }

    /// For single-threaded programs (a CLI waiting for a signal): processes what is pending, waits up
    /// to `timeout` for more, and processes that. Holds the connection for the whole wait.
    package func processPending(waitingUpTo timeout: Duration) throws(SystemdError) {
        try withBus { (bus) throws(SystemdError) in
            _ = try Self.processAll(bus)
            let usec = UInt64(max(0, timeout / .microseconds(1)))
            _ = try sdCall("sd_bus_wait") { sd_bus_wait(bus, usec) }
            _ = try Self.processAll(bus)
        }
    }

    /// The descriptor to poll (for reading) before ``processPending(waitingUpTo:)``, for a
    /// single-threaded program that waits on it beside descriptors of its own. Valid once what was
    /// written has been flushed (no call in flight).
    package var descriptor: CInt {
        get throws(SystemdError) {
            try withBus { (bus) throws(SystemdError) in try sdCall("sd_bus_get_fd") { sd_bus_get_fd(bus) } }
        }
    }

    private struct Wait {
        var fd: CInt
        var events: CInt
        var timeoutMilliseconds: CInt
    }

    /// Processes until sd-bus has nothing left to do; returns what to poll for next.
    private static func processAll(_ bus: OpaquePointer) throws(SystemdError) -> Wait {
        while try sdCall("sd_bus_process", { sd_bus_process(bus, nil) }) > 0 {}
        let fd = try sdCall("sd_bus_get_fd") { sd_bus_get_fd(bus) }
        let events = try sdCall("sd_bus_get_events") { sd_bus_get_events(bus) }
        var deadline: UInt64 = 0
        _ = try sdCall("sd_bus_get_timeout") { sd_bus_get_timeout(bus, &deadline) }
        var timeout: CInt = -1
        if deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            timeout = deadline <= nowUsec ? 0 : CInt(clamping: (deadline - nowUsec + 999) / 1000)
        }
        return Wait(fd: fd, events: events, timeoutMilliseconds: timeout)
    }
}

/// Something a run loop does on its own thread at a steady pace while it is healthy, e.g. ping
/// systemd's watchdog (``BusConnection/runBlocking(heartbeat:)``).
package struct LoopHeartbeat: Sendable {
    /// The longest time between two beats while the loop runs.
    package var interval: Duration
    /// What to do; runs on the loop thread, must be quick and must not throw.
    package var beat: @Sendable () -> Void

    /// A heartbeat every `interval`.
    package init(interval: Duration, beat: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.beat = beat
    }
}
