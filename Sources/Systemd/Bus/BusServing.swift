package import Logging
import Synchronization

/// Serves objects on a bus for the life of a daemon: connects, sets up, runs the loop, and when the
/// bus goes away (dbus-daemon restarted, the connection dropped) connects and sets up again.
///
/// A daemon whose serving connection died would otherwise keep running with nobody able to reach
/// it; with `Type=notify` systemd does not notice a lost bus name, so the daemon has to.
package struct BusServing: Sendable {
    /// Opens each new connection.
    package var open: @Sendable () throws(SystemdError) -> BusConnection
    /// Beats on the loop thread while requests are being served, and between reconnect attempts.
    package var heartbeat: LoopHeartbeat?
    /// How long reconnecting may fail in a row before ``run(attach:)`` gives up and throws.
    package var reconnectFor: Duration
    /// Where reconnects are reported.
    package var logger: Logger

    /// Serving on the system bus unless `open` says otherwise.
    package init(
        open: @escaping @Sendable () throws(SystemdError) -> BusConnection = { () throws(SystemdError) in try .system() },
        heartbeat: LoopHeartbeat? = nil, reconnectFor: Duration = .seconds(30), logger: Logger
    ) {
        self.open = open
        self.heartbeat = heartbeat
        self.reconnectFor = reconnectFor
        self.logger = logger
    }

    /// Runs until the task is cancelled (then returns normally, after the loop has stopped).
    ///
    /// - Parameter attach: Sets up one new connection: exports objects, subscribes, takes names.
    ///   Whatever it returns is kept alive while that connection serves. Its second argument is
    ///   true on the first connection only. Called again after every reconnect.
    /// - Throws: What `attach` throws on the first connection (e.g. the name is taken), or the last
    ///   error once reconnecting has failed for ``reconnectFor``.
    package func run(
        attach: @Sendable (_ connection: BusConnection, _ first: Bool) throws -> [any Sendable]
    ) async throws {
        try await run(startedWith: nil, attach: attach)
    }

    /// Sets `connection` up with `attach` (its first connection: `first` is true) and starts serving it
    /// on a thread of its own at once, without Swift's concurrency runtime: an app that has just said
    /// READY=1 takes its name and answers its first call while its services are still starting.
    /// Hand the result to ``run(startedWith:attach:)``, which waits on it before it connects again.
    /// - Throws: What `attach` throws, or the loop thread's failure to start; the loop does not run then.
    package func start(
        _ connection: BusConnection, attach: @Sendable (_ connection: BusConnection, _ first: Bool) throws -> [any Sendable]
    ) throws -> BusServingStart {
        let started = BusServingStart(connection: connection, kept: try setUp(connection, first: true, attach: attach))
        try connection.startLoopThread(heartbeat: heartbeat) { error in started.finish(error) }
        return started
    }

    /// Like ``run(attach:)``, first waiting on `started` (from ``start(_:attach:)``) when given: when its
    /// connection is lost, connects again and sets each new one up with `attach`.
    package func run(
        startedWith started: BusServingStart?,
        attach: @Sendable (_ connection: BusConnection, _ first: Bool) throws -> [any Sendable]
    ) async throws {
        var first = true
        if let started {
            first = false
            if await serve(started.connection, keeping: started.kept, until: started.served) { return }
        }
        var failingSince: ContinuousClock.Instant?
        var delay: Duration = .milliseconds(50)
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let connection: BusConnection
            let kept: [any Sendable]
            do {
                connection = try open()
                kept = try setUp(connection, first: first, attach: attach)
            } catch {
                if first { throw error }
                let since = failingSince ?? clock.now
                failingSince = since
                if clock.now - since >= reconnectFor {
                    logger.error("could not serve on the bus again for \(reconnectFor): \(error); giving up")
                    throw error
                }
                await pause(delay)
                delay = min(delay * 2, .seconds(1))
                continue
            }
            if !first { logger.notice("serving on the bus again after the connection was lost") }
            first = false
            failingSince = nil
            delay = .milliseconds(50)
            let heartbeat = heartbeat
            let stopped = await serve(connection, keeping: kept) { () async throws(SystemdError) in
                try await connection.run(heartbeat: heartbeat)
            }
            if stopped { return }  // cancelled or graceful shutdown
        }
    }

    /// Sets `connection` up with `attach`. attach may send asynchronous calls: the loop that completes
    /// them is announced first, and taken back when attach throws.
    private func setUp(
        _ connection: BusConnection, first: Bool, attach: (_ connection: BusConnection, _ first: Bool) throws -> [any Sendable]
    ) throws -> [any Sendable] {
        connection.loop.expectLoop()
        do {
            return try attach(connection, first)
        } catch {
            connection.loopWillNotRun()
            throw error
        }
    }

    /// Keeps `kept` alive while `loop` serves `connection`. Returns true when it stopped (then the
    /// replies and signals of the last calls are flushed), false when the connection was lost.
    private func serve(
        _ connection: BusConnection, keeping kept: [any Sendable], until loop: () async throws(SystemdError) -> Void
    ) async -> Bool {
        defer { withExtendedLifetime(kept) {} }
        do {
            try await loop()
            try? connection.flush()
            return true
        } catch {
            logger.warning("lost the bus connection (\(error)); connecting again")
            return false
        }
    }

    /// Waits `delay` while the heartbeat keeps beating (the daemon is alive, only the bus is not).
    private func pause(_ delay: Duration) async {
        heartbeat?.beat()
        try? await Task.sleep(for: delay)
        heartbeat?.beat()
    }
}

/// A connection that ``BusServing/start(_:attach:)`` set up and serves on a thread of its own: what it
/// keeps alive, and how its loop ended.
package final class BusServingStart: Sendable {
    let connection: BusConnection
    let kept: [any Sendable]
    private enum State {
        case serving
        case waited(CheckedContinuation<SystemdError?, Never>)
        case ended(SystemdError?)
    }
    private let state = Mutex<State>(.serving)

    init(connection: BusConnection, kept: [any Sendable]) {
        self.connection = connection
        self.kept = kept
    }

    /// The loop ended (nil: stopped), on the loop's thread.
    func finish(_ error: SystemdError?) {
        let waiter = state.withLock { state -> CheckedContinuation<SystemdError?, Never>? in
            defer { state = .ended(error) }
            if case .waited(let waiter) = state { return waiter }
            return nil
        }
        waiter?.resume(returning: error)
    }

    /// Returns when the loop stopped (the task's cancellation stops it); throws when the connection failed.
    func served() async throws(SystemdError) {
        let error = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<SystemdError?, Never>) in
                let ended = state.withLock { state -> SystemdError?? in
                    if case .ended(let error) = state { return .some(error) }
                    state = .waited(waiter)
                    return nil
                }
                if let ended { waiter.resume(returning: ended) }
            }
        } onCancel: {
            connection.stop()
        }
        if let error { throw error }
    }
}
