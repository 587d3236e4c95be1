import Foundation
package import RelaunchContract
import Synchronization

/// The transport-free core of permissiond: validates and answers each
/// `org.relaunch.Permissions1` call, committing changes and killing apps as the policy says.
///
/// The daemon turns each D-Bus call into a ``PermissionRequest``, checks that the caller may make
/// it (``isTheApp(_:caller:)`` and the ``Authorizer``, as the method's row of the interface's table
/// says), calls ``perform(_:caller:)``, replies with the outcome's `reply`, then performs its
/// `effects` in order (journal entries, `Changed` signals).
///
/// A change is committed to the store before its reply; the app's unit is killed (if the policy
/// says the change kills, the app is configured with a unit, and that unit is running) after the
/// commit, or, where the kill needs no answer (a standby's), asked for just before it while reads of
/// the app wait for the commit; then the kill is recorded. Handle Set and Reset one at a time (as a bus loop does) so that `Changed`
/// signals follow the order of the commits; concurrent calls are safe but may reorder signals.
package struct PermissionService: Sendable {
    /// The store.
    package let database: PermissionDatabase
    /// The kill policy and the units of configured apps.
    private let settings: Settings
    let units: any UnitController
    /// Who may change permissions, and read those of an app the caller is not (polkit, in permissiond).
    package let authorizer: any Authorizer
    let now: @Sendable () -> UInt64
    /// How long to wait before each attempt to kill right after a commit (the first is at once).
    let inlineRetryDelays: [Duration]
    /// Waits between two attempts to kill; `Task.sleep` unless told otherwise.
    let sleep: @Sendable (Duration) async -> Void
    /// After this many failed attempts a pending kill is given up (and that is logged).
    package let maximumKillAttempts: Int
    /// Which apps are in the background, and since which report (the one-time grants' clock).
    package let lifecycles = Lifecycles()
    /// The apps whose change is being committed after their kill was asked for: reads of them wait.
    package let changesInFlight = ChangesInFlight()
    /// How long an app may stay in the background before its one-time grants expire, instead of
    /// its profile's delay (`RELAUNCH_ONE_TIME_DELAY`, for tests); nil: the profile's.
    package let oneTimeDelayOverride: Duration?

    /// The waits before each attempt to kill right after a commit, unless told otherwise.
    package static let defaultInlineRetryDelays: [Duration] = [.zero, .milliseconds(50), .milliseconds(200), .milliseconds(500)]

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - database: the opened store.
    ///   - configuration: the loaded configuration.
    ///   - units: asks systemd which instance of a unit runs and kills it.
    ///   - authorizer: who may change permissions; root only by default.
    ///   - now: the current time in microseconds since the Unix epoch; the real clock by default.
    ///   - inlineRetryDelays: the waits before each attempt to kill right after a commit.
    ///   - sleep: waits out one of those delays; `Task.sleep` by default.
    ///   - maximumKillAttempts: failed attempts after which a pending kill is given up.
    ///   - oneTimeDelay: the background time after which one-time grants expire, instead of the
    ///     profile's (tests).
    package init(
        database: PermissionDatabase, configuration: PermissionConfiguration, units: any UnitController,
        authorizer: any Authorizer = RootOnly(),
        now: @escaping @Sendable () -> UInt64 = PermissionService.realtimeMicroseconds,
        inlineRetryDelays: [Duration] = PermissionService.defaultInlineRetryDelays,
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) },
        maximumKillAttempts: Int = 60, oneTimeDelay: Duration? = nil
    ) {
        self.oneTimeDelayOverride = oneTimeDelay
        self.database = database
        self.settings = Settings(configuration)
        self.units = units
        self.authorizer = authorizer
        self.now = now
        self.inlineRetryDelays = inlineRetryDelays
        self.sleep = sleep
        self.maximumKillAttempts = maximumKillAttempts
    }

    /// The kill policy and the registered apps, as last loaded or reloaded.
    package var configuration: PermissionConfiguration { settings.current.withLock { $0 } }

    /// Takes a new configuration (`systemctl reload permissiond`: apps.d read again). Requests
    /// already running finish with the one they started with; nothing stored is touched.
    package func reload(_ configuration: PermissionConfiguration) {
        settings.current.withLock { $0 = configuration }
    }

    /// The configuration, swapped whole on reload.
    private final class Settings: Sendable {
        let current: Mutex<PermissionConfiguration>
        init(_ configuration: PermissionConfiguration) { current = Mutex(configuration) }
    }

    /// CLOCK_REALTIME in microseconds since the Unix epoch.
    @Sendable package static func realtimeMicroseconds() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
    }

    /// Whether `caller` is the app `app` names: it runs in the unit registered for it, as systemd
    /// said of its pid (the app id names a registered app). Who may call what, given this, is
    /// permissiond's one access check, from `org.relaunch.Permissions1`'s table.
    package func isTheApp(_ app: String, caller: Caller) -> Bool {
        guard let unit = caller.unit, let registered = configuration.unit(for: app) else { return false }
        return unit == registered
    }

    /// Carries out an authorized request: validates it, then reads, or commits and kills.
    package func perform(_ request: PermissionRequest, caller: Caller) async -> PermissionOutcome {
        do {
            switch request {
            case .get, .list, .listApps, .lastKill, .lifecycle:
                return PermissionOutcome(reply: read(request))
            case .set(let app, let permission, let state):
                let configuration = configuration
                let app = try Self.app(app, in: configuration)
                let permission = try Self.permission(permission, of: app, in: configuration)
                let state = try Self.state(state, of: permission, under: configuration.killPolicy(for: app))
                return try await change(app: app, to: [(permission, state)], caller: caller, configuration: configuration)
            case .reset(let app, let permission):
                let configuration = configuration
                let app = try Self.app(app, in: configuration)
                let permissions = permission.isEmpty
                    ? configuration.permissions(for: app)
                    : [try Self.permission(permission, of: app, in: configuration, orEmpty: true)]
                return try await change(
                    app: app, to: permissions.map { ($0, .notDetermined) }, caller: caller, configuration: configuration)
            }
        } catch {
            return PermissionOutcome(reply: .failure(error))
        }
    }

    /// Answers a read (Get, List, ListApps, LastKill) at once, from the store's memory: it never
    /// waits for a write. Whether the caller may is checked before (permissiond's access check).
    package func read(_ request: PermissionRequest) -> Result<PermissionReply, PermissionServiceError> {
        let configuration = configuration
        do throws(PermissionServiceError) {
            switch request {
            case .get(let app, let permission):
                let app = try Self.app(app, in: configuration)
                let permission = try Self.permission(permission, of: app, in: configuration)
                return .success(.state(database.get(app: app, permission: permission)))
            case .list(let app):
                let app = try Self.app(app, in: configuration)
                let all = database.list(app: app)
                var states: [Permission: PermissionState] = [:]
                for permission in configuration.permissions(for: app) { states[permission] = all[permission] }
                return .success(.states(states))
            case .listApps:
                return .success(.apps(configuration.apps))
            case .lastKill(let app):
                return .success(.lastKill(database.lastKill(app: try Self.app(app, in: configuration))))
            case .lifecycle(let app, let lifecycle):
                let app = try Self.app(app, in: configuration)
                // `standby`: a standby of the app says it is there (docs/DESIGN.md, "The standby"); it
                // changes nothing, and its caller is then known when the standby takes over and reads.
                if lifecycle == AppState.Lifecycle.standbyReport { return .success(.done) }
                guard let background = ["background": true, "active": false][lifecycle] else {
                    throw .invalidArgs("unknown lifecycle \(Echo.quoted(lifecycle)); accepted: background, active, standby")
                }
                lifecycles.note(app, background: background)
                return .success(.done)
            case .set, .reset:
                return .failure(.invalidArgs("Set and Reset are writes, not reads"))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Runs a store call, turning its error into `Failed` with the store's message.
    func store<T>(_ body: () throws -> T) throws(PermissionServiceError) -> T {
        do {
            return try body()
        } catch {
            throw .failed("\(error)")
        }
    }

    static func app(_ raw: String, in configuration: PermissionConfiguration) throws(PermissionServiceError) -> String {
        guard AppID.isValid(raw) else {
            throw .invalidArgs("invalid app id \(Echo.quoted(raw)): an app id is \(AppID.acceptedForm)")
        }
        guard configuration.isRegistered(raw) else {
            let registered = configuration.apps.isEmpty ? "none" : configuration.apps.joined(separator: ", ")
            throw .invalidArgs(
                "unknown app \(Echo.quoted(raw)); registered: \(registered) (register an app with a file "
                    + "/etc/relaunch/apps.d/APP.conf, then systemctl reload permissiond)")
        }
        return raw
    }

    static func permission(
        _ raw: String, of app: String, in configuration: PermissionConfiguration, orEmpty: Bool = false
    ) throws(PermissionServiceError) -> Permission {
        let empty = orEmpty ? ", or empty for every permission" : ""
        guard let permission = Permission(rawValue: raw) else {
            throw .invalidArgs("unknown permission \(Echo.quoted(raw)); accepted: \(Permission.acceptedNames)\(empty)")
        }
        let uses = configuration.permissions(for: app)
        guard uses.contains(permission) else {
            let names = uses.map(\.rawValue).joined(separator: ", ")
            throw .invalidArgs("\(app) does not use the \(raw) permission; it uses: \(names)\(empty)")
        }
        return permission
    }

    /// The state `raw` names for `permission` under `profile`: a state's word or another name of it
    /// (`full`, `never`, …); InvalidArgs lists the words the permission accepts there.
    static func state(
        _ raw: String, of permission: Permission, under profile: KillPolicy
    ) throws(PermissionServiceError) -> PermissionState {
        let rule = profile.profile.rule(permission)
        guard let state = rule.state(named: raw) else {
            throw .invalidArgs(
                "unknown state \(Echo.quoted(raw)) for \(permission) under the \(profile) profile; accepted: "
                    + rule.acceptedNames)
        }
        return state
    }
}
