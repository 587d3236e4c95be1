internal import RelaunchApp
internal import Logging
internal import RelaunchContract
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
    }
}

/// Serves `org.relaunch.App1` on the app's bus name (launching has finished and READY=1 was sent before this
/// runs), follows permissiond (its `Changed` signal and its name owner), and pings systemd's
/// watchdog from the loop that serves calls, so a hung handler or loop gets the app aborted.
/// Connects again when the bus goes away.
struct BusService<App: HostableApp>: Service {
    /// The connection the launch used; served first (nil: no bus at launch, try to connect).
    let connection: BusConnection?
    let interface: App1Server<App>
    let host: AppHost<App>
    let notifier: ServiceNotifier
    let logger: Logger

    func run() async throws {
        var heartbeat: LoopHeartbeat?
        if let interval = try ServiceNotifier.recommendedWatchdogPingInterval() {
            let notifier = notifier
            heartbeat = LoopHeartbeat(interval: interval) { _ = try? notifier.watchdog() }
        }
        let launchConnection = Mutex<BusConnection?>(connection)
        let serving = BusServing(
            open: { () throws(SystemdError) -> BusConnection in
                if let first = launchConnection.withLock({ $0.take() }) { return first }
                return try BusConnection.system()
            },
            heartbeat: heartbeat, logger: logger)
        let interface = interface
        let host = host
        let logger = logger
        let authorizer = AppDriveAuthorizer(authority: PolkitAuthority(link: BusLink()))
        try await cancelWhenGracefulShutdown {
            try await serving.run { connection, _ in
                let answer: BusDeferringMethodHandler = { (call, _) throws(BusError) -> BusReply? in
                    try interface.handle(call)
                }
                // Input: root at once; anyone else once polkit says yes (asked off the bus thread).
                let drive: BusDeferringMethodHandler = { (call, pending) throws(BusError) -> BusReply? in
                    guard !call.isFromRoot else { return try interface.handle(call) }
                    authorizer.authorize(call, pending) { () throws(BusError) -> BusReply in
                        try interface.handle(call, authorized: true)
                    }
                    return nil
                }
                let object = try connection.export(
                    .app1, at: BusInterface.app1ObjectPath,
                    handlers: [
                        "Ready": answer, "State": answer, "Screen": answer, "Elements": answer, "TestHook": answer,
                        "Tap": drive, "Type": drive, "Background": drive, "Foreground": drive, "Quit": drive,
                    ])
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
    }
}

/// Keeps the app's permissions equal to permissiond's: applies `Changed` signals for this app,
/// and reads them again whenever permissiond's name gets an owner (it was down at launch, or
/// restarted) and right after subscribing (nothing missed between launch and now).
enum PermissionFollower {
    static func follow<App: HostableApp>(
        on connection: BusConnection, host: AppHost<App>, logger: Logger
    ) throws(BusError) -> [BusSubscription] {
        let app = host.configuration.appID
        let changed = try connection.subscribe(
            BusMatchRule(
                path: BusNames.Permissions.object, interface: BusNames.Permissions.interface, member: "Changed")
        ) { signal in
            guard let changedApp = try? signal.arguments.string(at: 0), changedApp == app,
                let name = try? signal.arguments.string(at: 1), let permission = Permission(rawValue: name),
                App.permissions.contains(permission),
                let raw = try? signal.arguments.string(at: 3), let state = PermissionState(rawValue: raw)
            else { return }
            host.updatePermission(permission, to: state, because: "permissiond said it changed")
        }
        let owner = try connection.subscribe(
            BusMatchRule(
                sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameOwnerChanged")
        ) { signal in
            guard (try? signal.arguments.string(at: 0)) == BusNames.Permissions.service,
                let newOwner = try? signal.arguments.string(at: 2), !newOwner.isEmpty
            else { return }
            reread(on: connection, host: host, logger: logger, why: "permissiond is back")
        }
        reread(on: connection, host: host, logger: logger, why: "following permissiond from now on")
        return [changed, owner]
    }

    /// Asks permissiond for the app's permissions on a thread of its own (never the loop thread,
    /// whose connection the answer comes in on) and applies the answer.
    private static func reread<App: HostableApp>(
        on connection: BusConnection, host: AppHost<App>, logger: Logger, why: String
    ) {
        do {
            try spawnDetachedThread {
                do throws(BusError) {
                    let listed = try PermissionsClient(bus: connection, timeout: .seconds(5)).list(app: host.configuration.appID)
                    for permission in App.permissions {
                        guard let state = listed[permission.rawValue].flatMap(PermissionState.init(rawValue:)) else { continue }
                        host.updatePermission(permission, to: state, because: why)
                    }
                } catch {
                    logger.notice("could not read the app's permissions (\(why)); the next Changed or restart of permissiond corrects it", metadata: [
                        "ERROR": "\(error)",
                    ])
                }
            }
        } catch {
            logger.warning("no thread to read permissions on", metadata: ["ERROR": "\(error)"])
        }
    }
}

/// Asks polkit, on a thread of its own (never the bus loop), whether a non-root caller may drive
/// the app (`org.relaunch.app.drive`), then runs the input and answers.
struct AppDriveAuthorizer: Sendable {
    static let action = "org.relaunch.app.drive"
    let authority: PolkitAuthority

    func authorize(
        _ call: BusMethodCall, _ pending: BusPendingReply,
        then input: @escaping @Sendable () throws(BusError) -> BusReply
    ) {
        let authority = authority
        do {
            try spawnDetachedThread {
                pending.send(Result { () throws(BusError) -> BusReply in
                    guard let name = call.sender else { throw .accessDenied("the bus did not name the caller") }
                    let answer: PolkitAuthority.Answer
                    do throws(BusError) {
                        answer = try authority.check(
                            action: Self.action, busName: name, interactive: call.allowsInteractiveAuthorization)
                    } catch {
                        throw .accessDenied("polkit could not be asked (\(error)); run as root")
                    }
                    guard answer.isAuthorized else {
                        throw .accessDenied(
                            "not authorized for \(Self.action); run as root or as a member of the group 'relaunch'")
                    }
                    return try input()
                })
            }
        } catch {
            pending.send(.failure(.failed("no thread to ask polkit on: \(error)")))
        }
    }
}
