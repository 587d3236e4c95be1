/// What the permission service needs from systemd: which instance of an app's unit runs, and
/// kill exactly that instance.
///
/// permissiond implements it over `org.freedesktop.systemd1`; tests use a fake. The service asks
/// before it commits a change that kills (the pending kill names the instance running then) and
/// kills after the commit; where the kill needs no answer from anyone (a standby's), it asks for it
/// before the commit (``requestKill(unit:instance:)``) and ``kill(unit:instance:)`` waits for it.
package protocol UnitController: Sendable {
    /// The InvocationID (32 lowercase hex digits) of the instance of `unit` whose main process runs
    /// now, or nil when none runs (not loaded, inactive, or waiting to restart).
    ///
    /// - Throws: when systemd cannot be asked; the service then stores nothing and says so.
    func runningInstance(of unit: String) async throws -> String?

    /// Sends SIGKILL to `unit`'s main process if the instance running is `instance`
    /// (`KillUnit(unit, "main", 9)`), so a newer instance is never killed for an older change.
    ///
    /// - Returns: ``KillDelivery/killed``, or ``KillDelivery/gone`` when that instance no longer runs.
    /// - Throws: when the kill could not be sent; the service retries, then reports `Failed`.
    func kill(unit: String, instance: String) async throws -> KillDelivery

    /// Asks for the kill of `unit`'s main process now, without waiting, when `instance` was just read
    /// as running and the kill has a route that needs no answer (a standby of that process). The
    /// next ``kill(unit:instance:)`` of that instance then waits for that kill instead of sending one.
    ///
    /// - Returns: whether the kill was asked for; false leaves everything to ``kill(unit:instance:)``.
    func requestKill(unit: String, instance: String) -> Bool
}

extension UnitController {
    /// No route without an answer: every kill is ``kill(unit:instance:)``'s.
    package func requestKill(unit: String, instance: String) -> Bool { false }
}

/// What became of a kill request.
package enum KillDelivery: Sendable, Hashable {
    /// The signal was sent to the instance that owed the kill.
    case killed
    /// That instance no longer runs (it exited, or a newer one replaced it): nothing to kill.
    case gone
}

/// Who may change permissions: the daemon asks polkit; tests and tools use ``RootOnly``.
package protocol Authorizer: Sendable {
    /// Throws `AccessDenied` unless `caller` may change permissions.
    func authorizeChange(by caller: Caller) async throws(PermissionServiceError)

    /// Throws `AccessDenied` unless `caller` may read the permissions and kills of `app`, an app
    /// whose unit it does not run in (the service has already let root and the app itself through).
    func authorizeRead(of app: String, by caller: Caller) async throws(PermissionServiceError)
}

/// The caller of a request, as the transport knows it.
package struct Caller: Sendable, Hashable {
    /// The caller's unix uid (`UInt32.max` when unknown).
    package var uid: UInt32
    /// The caller's unique bus name, when it came over a bus.
    package var busName: String?
    /// Whether the caller allows interactive authorization.
    package var interactive: Bool
    /// The systemd unit the caller's process runs in, as systemd said for the pid the bus
    /// recorded (nil when unknown, or not asked because the caller is root).
    package var unit: String?
    /// The caller's pid, as the bus recorded it, when systemd was asked for its unit (and the process
    /// was still the caller's throughout); nil otherwise.
    package var pid: UInt32?

    /// Creates a caller.
    package init(uid: UInt32, busName: String? = nil, interactive: Bool = false, unit: String? = nil, pid: UInt32? = nil) {
        self.uid = uid
        self.busName = busName
        self.interactive = interactive
        self.unit = unit
        self.pid = pid
    }
}

/// Only root (uid 0) may change permissions.
package struct RootOnly: Authorizer {
    /// Creates the authorizer.
    package init() {}

    /// Throws `AccessDenied` unless the caller is uid 0.
    package func authorizeChange(by caller: Caller) async throws(PermissionServiceError) {
        guard caller.uid == 0 else {
            throw .accessDenied(
                "only root (uid 0) may change permissions, but the caller is uid \(caller.uid); run the command as root, e.g. with sudo")
        }
    }

    /// Throws `AccessDenied`: only root and the app itself read an app's permissions.
    package func authorizeRead(of app: String, by caller: Caller) async throws(PermissionServiceError) {
        guard caller.uid == 0 else {
            throw .accessDenied(
                "uid \(caller.uid) may not read the permissions of \(app): only root and the app itself may; run the command as root, e.g. with sudo")
        }
    }
}
