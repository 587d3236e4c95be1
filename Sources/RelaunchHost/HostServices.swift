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
                // Input, and what the app shows (its screen, state and elements may hold what the
                // user typed): root at once; anyone else once polkit says yes (asked off the bus thread).
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
                        "Ready": answer, "TestHook": answer, "State": drive, "Screen": drive, "Elements": drive,
                        "Tap": drive, "Type": drive, "Background": drive, "Foreground": drive, "Quit": drive,
                        "Scenes": drive, "OpenScene": drive, "CloseScene": drive, "SceneTap": drive,
                        "SceneType": drive, "SceneScreen": drive, "SceneElements": drive,
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
///
/// A signal is believed only from its sender: `Changed` only when the bus daemon says it was sent
/// by the current owner of `org.relaunch.Permissions1`, `NameOwnerChanged` only from the bus
/// daemon itself. Anyone may emit a signal with any path, interface and member, and a unicast
/// signal reaches the app whatever its match rules; the sender's unique name is the one thing the
/// bus daemon fills in itself. A forged `Changed` changes nothing and is logged once per sender.
enum PermissionFollower {
    /// The current owner of permissiond's name, as the bus daemon said, and the senders of forged
    /// signals already logged.
    final class Trust: Sendable {
        private struct State {
            var owner: String?
            var forgers: Set<String> = []
        }
        private let state = Mutex(State())

        var owner: String? { state.withLock { $0.owner } }

        func setOwner(_ owner: String?) { state.withLock { $0.owner = owner } }

        /// Whether `sender` has not been logged as a forger yet (and is from now on).
        func firstForgery(by sender: String) -> Bool {
            state.withLock { $0.forgers.count < 1024 && $0.forgers.insert(sender).inserted }
        }
    }

    static func follow<App: HostableApp>(
        on connection: BusConnection, host: AppHost<App>, logger: Logger
    ) throws(BusError) -> [BusSubscription] {
        let app = host.configuration.appID
        let trust = Trust()
        let changed = try connection.subscribe(
            // No sender= in the rule: sd-bus would compare the well-known name with the unique name
            // the message carries. The handler checks the sender against the owner instead.
            BusMatchRule(path: BusNames.Permissions.object, interface: BusNames.Permissions.interface, member: "Changed")
        ) { signal in
            guard let sender = signal.sender, sender == trust.owner else {
                let who = signal.sender ?? "an unnamed sender"
                if trust.firstForgery(by: who) {
                    logger.warning(
                        "ignored a Changed signal from \(who), which does not own \(BusNames.Permissions.service); only permissiond's signals count",
                        metadata: ["SIGNAL_SENDER": "\(who)"])
                }
                return
            }
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
            guard signal.sender == "org.freedesktop.DBus",
                (try? signal.arguments.string(at: 0)) == BusNames.Permissions.service,
                let newOwner = try? signal.arguments.string(at: 2)
            else { return }
            trust.setOwner(newOwner.isEmpty ? nil : newOwner)
            if !newOwner.isEmpty {
                reread(on: connection, host: host, logger: logger, why: "permissiond is back", trust: nil)
            }
        }
        reread(on: connection, host: host, logger: logger, why: "following permissiond from now on", trust: trust)
        return [changed, owner]
    }

    /// Asks permissiond for the app's permissions (first, with `trust`, who owns its name) and
    /// applies the answer. The calls are completed by the connection's loop, never waited for while
    /// holding the connection: the loop goes on serving and pinging the watchdog meanwhile.
    private static func reread<App: HostableApp>(
        on connection: BusConnection, host: AppHost<App>, logger: Logger, why: String, trust: Trust?
    ) {
        Task {
            do throws(BusError) {
                if let trust {
                    let owner = try await connection.callAsync(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        member: "GetNameOwner", arguments: [.string(BusNames.Permissions.service)], timeout: .seconds(5)
                    ).string(at: 0)
                    // A NameOwnerChanged that came meanwhile is newer than this answer.
                    if trust.owner == nil { trust.setOwner(owner) }
                }
                let listed = try await PermissionsClient(bus: connection, timeout: .seconds(5))
                    .list(app: host.configuration.appID)
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
    }
}

/// Asks polkit, without holding any bus connection, whether a non-root caller may drive the app
/// or read its screen and state (`org.relaunch.app.drive`), then runs the call and answers.
struct AppDriveAuthorizer: Sendable {
    static let action = "org.relaunch.app.drive"
    let authority: PolkitAuthority

    func authorize(
        _ call: BusMethodCall, _ pending: BusPendingReply,
        then input: @escaping @Sendable () throws(BusError) -> BusReply
    ) {
        let authority = authority
        Task {
            let result: Result<BusReply, BusError>
            do throws(BusError) {
                guard let name = call.sender else { throw .accessDenied("the bus did not name the caller") }
                let answer: PolkitAuthority.Answer
                do throws(BusError) {
                    answer = try await authority.check(
                        action: Self.action, busName: name, interactive: call.allowsInteractiveAuthorization)
                } catch {
                    throw .accessDenied("polkit could not be asked (\(error.message)); run as root")
                }
                guard answer.isAuthorized else {
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
