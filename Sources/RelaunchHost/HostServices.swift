internal import RelaunchApp
internal import Logging
internal import ServiceLifecycle
internal import Systemd
internal import RelaunchBus
internal import Synchronization

/// The app itself: runs until a quit asks to exit or a graceful shutdown (SIGTERM, SIGINT) comes,
/// then preserves if in the background and says STOPPING=1.
struct AppService<App: HostableApp>: Service {
    let host: AppHost<App>

    func run() async {
        var quit = false
        for await _ in host.terminationRequests.cancelOnGracefulShutdown() {
            quit = true
            break
        }
        host.shutDown(reason: quit ? "the user quit" : "asked to stop")
        if quit && host.takeLingerOnQuit() {
            try? await Task.sleep(for: AppHost<App>.lingerAfterQuit)  // the linger-on-quit test hook
        }
    }
}

/// Serves `org.relaunch.App1` on the app's bus name (launching has finished and READY=1 was sent before this
/// runs), follows permissiond (its `Changed` signal and its name owner), and pings systemd's
/// watchdog from the loop that serves calls, so a hung handler or loop gets the app aborted.
/// Connects again when the bus goes away.
///
/// The launch's connection is set up and served from its own thread as soon as this is made (right
/// after READY=1), not when the service group gets to ``run()``: starting Swift's concurrency runtime
/// and the group takes milliseconds, and a driver waiting for the relaunched app calls it at once.
struct BusService<App: HostableApp>: Service {
    private let serving: BusServing
    private let setUp: @Sendable (_ connection: BusConnection, _ first: Bool) throws -> [any Sendable]
    /// The launch's connection, already served (nil: there was none; ``run()`` connects).
    private let started: BusServingStart?

    /// Starts serving `connection` (the one the launch used; nil: none, ``run()`` connects) at once.
    /// `whenServing` runs once, when the app first owns its bus name, on a thread of its own (the next
    /// standby is spawned then: its start never delays taking the name or answering a call).
    /// - Throws: ``HostError`` when the name cannot be taken.
    init(
        connection: BusConnection?, interface: App1Server<App>, host: AppHost<App>, notifier: ServiceNotifier,
        logger: Logger, whenServing: @escaping @Sendable () -> Void = {}
    ) throws {
        var heartbeat: LoopHeartbeat?
        if let interval = try ServiceNotifier.recommendedWatchdogPingInterval() {
            heartbeat = LoopHeartbeat(interval: interval) { _ = try? notifier.watchdog() }
        }
        let serving = BusServing(heartbeat: heartbeat, logger: logger)
        self.serving = serving
        let authorizer = AppDriveAuthorizer(authority: PolkitAuthority(link: BusLink()))
        let onFirstServing = OnceAction {
            do {
                try spawnDetachedThread(whenServing)
            } catch {
                whenServing()
            }
        }
        let setUp: @Sendable (_ connection: BusConnection, _ first: Bool) throws -> [any Sendable] = { connection, _ in
            let kept = try Self.attach(connection, interface: interface, host: host, authorizer: authorizer, logger: logger)
            onFirstServing.run()
            return kept
        }
        self.setUp = setUp
        started = try connection.map { connection in try serving.start(connection, attach: setUp) }
    }

    func run() async throws {
        let serving = serving
        let setUp = setUp
        let started = started
        try await cancelWhenGracefulShutdown {
            try await serving.run(startedWith: started, attach: setUp)
        }
    }

    /// Sets one connection up: exports App1, follows permissiond, takes the app's name.
    private static func attach(
        _ connection: BusConnection, interface: App1Server<App>, host: AppHost<App>, authorizer: AppDriveAuthorizer,
        logger: Logger
    ) throws -> [any Sendable] {
        authorizer.gate.forgetAll()  // a new bus daemon gives the same names to other connections
        let answer: BusDeferringMethodHandler = { (call, _) throws(BusError) -> BusReply? in
            try interface.handle(call)
        }
        // Input, and what the app shows (its screen, state and elements may hold what the
        // user typed): root at once; anyone else once polkit says yes (asked off the bus thread).
        let drive: BusDeferringMethodHandler = { (call, pending) throws(BusError) -> BusReply? in
            guard !call.isFromRoot else { return try interface.handle(call) }
            authorizer.authorize(call, pending) { () throws(BusError) -> BusReply in
                try interface.handleAuthorized(call)
            }
            return nil
        }
        // Who may call each method is its row of the table: only driver methods ask polkit.
        let handlers = Dictionary(uniqueKeysWithValues: App1Method.allCases.map { method in
            (method.member, method.access == .driver ? drive : answer)
        })
        let object = try connection.export(.app1, at: BusInterface.app1ObjectPath, handlers: handlers)
        let follower = try PermissionFollower.follow(on: connection, host: host, logger: logger)
        do {
            try connection.requestName(host.configuration.busName)
        } catch {
            throw HostError(.bus, "could not take the bus name \(host.configuration.busName): \(error); "
                + "check that the app's D-Bus policy (systemd/dbus/) allows this user to own it")
        }
        return [object, follower]
    }
}

/// An action that runs at most once, whichever thread asks first.
final class OnceAction: Sendable {
    private let action: @Sendable () -> Void
    private let done = Atomic<Bool>(false)

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func run() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        action()
    }
}

/// Asks polkit, without holding any bus connection, whether a non-root caller may drive the app
/// or read its screen and state (`org.relaunch.app.drive`), then runs the call and answers.
///
/// polkit is asked through a ``PolkitGate``, as permissiond asks it: a budget per uid, so a
/// stranger who calls in a flood waits behind its own checks and the link to polkit never holds
/// more than dbus-daemon allows (128); and refusals remembered per connection and answered at a
/// pace, so the flood loads neither polkit nor the app's serving thread.
struct AppDriveAuthorizer: Sendable {
    static let action = "org.relaunch.app.drive"
    let gate: PolkitGate

    /// 4 checks of one uid at once, 32 in all; 4096 waiting per uid (256 connections of 16 calls).
    static let limits = WorkBudgetLimits(runningPerKey: 4, waitingPerKey: 4096, running: 32)

    init(authority: PolkitAuthority, limits: WorkBudgetLimits = AppDriveAuthorizer.limits) {
        gate = PolkitGate(polkit: authority, limits: limits)
    }

    func authorize(
        _ call: BusMethodCall, _ pending: BusPendingReply,
        then input: @escaping @Sendable () throws(BusError) -> BusReply
    ) {
        let gate = gate
        Task {
            let result: Result<BusReply, BusError>
            do throws(BusError) {
                guard let name = call.sender else { throw .accessDenied("the bus did not name the caller") }
                let uid = call.senderUID ?? UInt32.max
                let answer: PolkitVerdict
                do throws(BusError) {
                    answer = try await gate.check(
                        action: Self.action, busName: name, uid: uid, interactive: call.allowsInteractiveAuthorization)
                } catch where error.name == BusError.limitsExceededName {
                    throw error
                } catch {
                    throw .accessDenied("polkit could not be asked (\(error.message)); run as root")
                }
                guard answer == .authorized else {
                    throw .accessDenied(
                        "not authorized for \(Self.action); run as root or as a member of the group 'relaunch'")
                }
                result = .success(try input())
            } catch {
                result = .failure(error)
            }
            pending.send(result)
        }
    }
}
