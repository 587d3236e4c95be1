import Foundation
import RelaunchContract

/// The transport-free core of permissiond: validates, authorizes and answers each
/// `org.relaunch.Permissions1` call, committing changes and killing apps as the policy says.
///
/// The daemon turns each D-Bus call into a ``PermissionRequest``, calls ``handle(_:callerUID:)``
/// with the caller's unix uid, replies with the outcome's `reply`, then performs its `effects`
/// in order (journal entries, `Changed` signals).
///
/// A change is committed to the store first; only then is the app's unit killed (if the policy
/// says the change kills, the app is configured with a unit, and that unit is running), and the
/// kill recorded. Handle Set and Reset one at a time (as a bus loop does) so that `Changed`
/// signals follow the order of the commits; concurrent calls are safe but may reorder signals.
public struct PermissionService: Sendable {
    /// The store.
    public let database: PermissionDatabase
    /// The kill policy and the units of configured apps.
    public let configuration: PermissionConfiguration
    let units: any UnitController
    let now: @Sendable () -> UInt64

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - database: the opened store.
    ///   - configuration: the loaded configuration.
    ///   - units: asks systemd whether a unit runs and kills it.
    ///   - now: the current time in microseconds since the Unix epoch; the real clock by default.
    public init(
        database: PermissionDatabase, configuration: PermissionConfiguration, units: any UnitController,
        now: @escaping @Sendable () -> UInt64 = PermissionService.realtimeMicroseconds
    ) {
        self.database = database
        self.configuration = configuration
        self.units = units
        self.now = now
    }

    /// CLOCK_REALTIME in microseconds since the Unix epoch.
    @Sendable public static func realtimeMicroseconds() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
    }

    /// Answers one request from the caller with unix uid `callerUID`.
    ///
    /// Set and Reset are checked for uid 0 before their arguments; every request's app id,
    /// permission and state are then validated, in that order. Unknown but well-formed app ids
    /// are accepted everywhere: they hold `not-determined` until set, and are never killed.
    public func handle(_ request: PermissionRequest, callerUID: UInt32) async -> PermissionOutcome {
        do {
            switch request {
            case .get(let app, let permission):
                let (app, permission) = (try Self.app(app), try Self.permission(permission))
                return PermissionOutcome(reply: .success(.state(try store { try database.get(app: app, permission: permission) })))
            case .list(let app):
                let app = try Self.app(app)
                return PermissionOutcome(reply: .success(.states(try store { try database.list(app: app) })))
            case .listApps:
                let stored = try store { try database.apps() }
                return PermissionOutcome(reply: .success(.apps(Set(stored + configuration.apps).sorted())))
            case .lastKill(let app):
                let app = try Self.app(app)
                return PermissionOutcome(reply: .success(.lastKill(try store { try database.lastKill(app: app) })))
            case .set(let app, let permission, let state):
                try Self.authorize(callerUID, to: "change permissions")
                let (app, permission, state) = (try Self.app(app), try Self.permission(permission), try Self.state(state))
                let change = try store {
                    try database.set(app: app, permission: permission, to: state, callerUID: callerUID, at: now())
                }
                return await apply([change], app: app)
            case .reset(let app, let permission):
                try Self.authorize(callerUID, to: "reset permissions")
                let app = try Self.app(app)
                let permission = permission.isEmpty ? nil : try Self.permission(permission, orEmpty: true)
                let changes = try store {
                    try database.reset(app: app, permission: permission, callerUID: callerUID, at: now())
                }
                return await apply(changes, app: app)
            }
        } catch {
            return PermissionOutcome(reply: .failure(error))
        }
    }

    /// Runs a store call, turning its error into `Failed` with the store's message.
    private func store<T>(_ body: () throws -> T) throws(PermissionServiceError) -> T {
        do {
            return try body()
        } catch {
            throw .failed("\(error)")
        }
    }

    static func authorize(_ uid: UInt32, to action: String) throws(PermissionServiceError) {
        guard uid == 0 else {
            throw .accessDenied(
                "only root (uid 0) may \(action), but the caller is uid \(uid); run the command as root, e.g. with sudo")
        }
    }

    static func app(_ raw: String) throws(PermissionServiceError) -> String {
        guard AppID.isValid(raw) else {
            throw .invalidArgs("invalid app id '\(raw)': an app id is \(AppID.acceptedForm)")
        }
        return raw
    }

    static func permission(_ raw: String, orEmpty: Bool = false) throws(PermissionServiceError) -> Permission {
        guard let permission = Permission(rawValue: raw) else {
            let empty = orEmpty ? ", or empty for every permission" : ""
            throw .invalidArgs("unknown permission '\(raw)'; accepted: \(Permission.acceptedNames)\(empty)")
        }
        return permission
    }

    static func state(_ raw: String) throws(PermissionServiceError) -> PermissionState {
        guard let state = PermissionState(rawValue: raw) else {
            throw .invalidArgs("unknown state '\(raw)'; accepted: \(PermissionState.acceptedNames)")
        }
        return state
    }
}
