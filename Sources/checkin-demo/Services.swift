internal import Logging
internal import RelaunchContract
internal import ServiceLifecycle
internal import Synchronization
internal import Systemd

/// The app itself: runs until a quit asks to exit or a graceful shutdown (SIGTERM, SIGINT) comes,
/// then preserves if in the background and says STOPPING=1.
struct AppService: Service {
    let host: AppHost

    func run() async {
        var quit = false
        for await _ in host.terminationRequests.cancelOnGracefulShutdown() {
            quit = true
            break
        }
        host.shutDown(reason: quit ? "the user quit" : "asked to stop")
    }
}

/// Pings systemd's watchdog at half `WatchdogSec=`; returns at once when no watchdog is set.
/// After the `hang` test hook it stays silent, so the watchdog fires.
struct WatchdogService: Service {
    let host: AppHost
    let notifier: ServiceNotifier
    let logger: Logger

    func run() async throws {
        guard let interval = try ServiceNotifier.recommendedWatchdogPingInterval() else { return }
        try ping()
        for await _ in Ticks(interval: interval).cancelOnGracefulShutdown() {
            try ping()
        }
    }

    private func ping() throws(SystemdError) {
        guard !host.isHung else { return }
        try notifier.watchdog()
    }
}

/// An endless sequence that yields every `interval` (the first after one interval), until cancelled.
struct Ticks: AsyncSequence, Sendable {
    typealias Element = Void
    typealias Failure = Never

    let interval: Duration

    struct AsyncIterator: AsyncIteratorProtocol {
        let interval: Duration

        mutating func next() async -> Void? {
            do {
                try await Task.sleep(for: interval)
                return ()
            } catch {
                return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(interval: interval) }
}

/// Serves `org.relaunch.CheckInDemo1`: exports the object, takes the bus name (launching has finished
/// and READY=1 was sent before this runs), and processes calls on a thread of its own until shutdown.
struct BusService: Service {
    let connection: BusConnection?
    let interface: DemoBusInterface
    let logger: Logger

    func run() async throws {
        guard let connection else {
            logger.warning("no system bus: org.relaunch.CheckInDemo1 is not served")
            try? await gracefulShutdown()
            return
        }
        let object = try connection.export(.checkInDemo1, at: BusNames.CheckInDemo.object) { call throws(BusError) in
            try interface.handle(call)
        }
        defer { object.cancel() }
        do {
            try connection.requestName(BusNames.CheckInDemo.service)
        } catch {
            throw DemoError(.bus, "could not take the bus name \(BusNames.CheckInDemo.service): \(error); "
                + "check the D-Bus policy (systemd/dbus/org.relaunch.CheckInDemo1.conf) allows this user to own it")
        }
        try await serve(connection)
        // Replies to the last calls (a Quit) go out before the process exits.
        try? connection.flush()
    }

    /// Processes calls on the connection's own loop thread until graceful shutdown or cancellation.
    private func serve(_ connection: BusConnection) async throws {
        do {
            try await withGracefulShutdownHandler {
                try await connection.run()
            } onGracefulShutdown: {
                connection.stop()
            }
        } catch let error as SystemdError {
            throw DemoError(.bus, "the system bus connection failed: \(error)")
        }
    }
}
