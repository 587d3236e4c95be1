package import RelaunchBus
package import RelaunchContract
package import Systemd

/// Maps bus failures to the contract's exit codes with a line that says what to do.
package func cliError(_ error: BusError, talkingTo service: String, hint: String) -> CLIError {
    if error.isAccessDenied {
        // The daemons' own refusals name the polkit action and what to do; the bus policy's do not.
        let hint = error.message.contains("root") ? "" : " (run as root, or as a member of the group 'relaunch')"
        return CLIError(.notAuthorized, "not authorized: \(Echo.quoted(error.message, limit: 400).dropFirst().dropLast())\(hint)")
    }
    if error.isUnreachable {
        return CLIError(.unavailable, "\(service) is not reachable on the system bus (\(error.message)); \(hint)")
    }
    if error.name == BusError.invalidArgsName {
        return CLIError(.usage, error.message)
    }
    return CLIError(.failed, "\(service): \(error.message)")
}

/// Opens the system bus, or says why not.
package func systemBus() throws(CLIError) -> BusConnection {
    do {
        return try BusConnection.system()
    } catch {
        throw CLIError(.unavailable, "cannot connect to the system bus (\(error)); is dbus running here? "
            + "In the sandbox: scripts/sandbox exec -- relaunchctl ...")
    }
}

/// The permission daemon, org.relaunch.Permissions1, with failures as the contract's exit codes.
package struct PermissionsCLIClient {
    package let client: PermissionsClient

    package init() throws(CLIError) { client = PermissionsClient(bus: try systemBus()) }

    package func get(app: String, permission: String) throws(CLIError) -> String {
        try run { () throws(BusError) in try client.get(app: app, permission: permission) }
    }

    package func list(app: String) throws(CLIError) -> [String: String] {
        try run { () throws(BusError) in try client.list(app: app) }
    }

    package func listApps() throws(CLIError) -> [String] {
        try run { () throws(BusError) in try client.listApps() }
    }

    package func set(app: String, permission: String, state: String) throws(CLIError) {
        try run { () throws(BusError) in try client.set(app: app, permission: permission, state: state) }
    }

    package func reset(app: String, permission: String) throws(CLIError) {
        try run { () throws(BusError) in try client.reset(app: app, permission: permission) }
    }

    package func lastKill(app: String) throws(CLIError) -> LastKill? {
        try run { () throws(BusError) in try client.lastKill(app: app) }
    }

    private func run<T>(_ body: () throws(BusError) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            throw cliError(error, talkingTo: "permissiond",
                           hint: "is permissiond.service running? (systemctl status permissiond)")
        }
    }
}

/// One registered app's org.relaunch.App1, with failures as the contract's exit codes.
package struct AppCLIClient {
    package let target: AppTarget
    package let client: AppClient

    /// The app `target` on a new connection.
    package init(_ target: AppTarget) throws(CLIError) {
        self.init(target, bus: try systemBus())
    }

    /// The app `target` on an open connection.
    package init(_ target: AppTarget, bus: BusConnection) {
        self.target = target
        client = AppClient(bus: bus, busName: target.busName)
    }

    package func tap(_ element: String) throws(CLIError) { try run { () throws(BusError) in try client.tap(element) } }
    package func type(field: String, text: String) throws(CLIError) {
        try run { () throws(BusError) in try client.type(field: field, text: text) }
    }
    package func background() throws(CLIError) { try run { () throws(BusError) in try client.background() } }
    package func foreground() throws(CLIError) { try run { () throws(BusError) in try client.foreground() } }
    package func quit(force: Bool) throws(CLIError) { try run { () throws(BusError) in try client.quit(force: force) } }
    package func testHook(_ name: String) throws(CLIError) { try run { () throws(BusError) in try client.testHook(name) } }
    package func screen() throws(CLIError) -> String { try run { () throws(BusError) in try client.screen() } }
    package func state() throws(CLIError) -> String { try run { () throws(BusError) in try client.state() } }
    package func elements() throws(CLIError) -> [AppElement] { try run { () throws(BusError) in try client.elements() } }

    /// Whether the running instance finished launching, and its invocation id.
    package func ready() throws(CLIError) -> (finished: Bool, invocationID: String) {
        try run { () throws(BusError) in try client.ready() }
    }

    /// Runs one App1 call; its failures become the contract's exit codes.
    func run<T>(_ body: () throws(BusError) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            throw cliError(
                error, talkingTo: target.app,
                hint: "is \(target.unit) running? (systemctl status \(target.unit); relaunchctl app --app \(target.app) wait-ready)")
        }
    }

    /// Quits the app and returns once the instance that was asked has gone: its unit no longer
    /// runs it (stopped, failed, or running another instance). The app answers Quit before it has
    /// exited, and a unit still active then ignores a start (systemd's StartUnit on an active unit
    /// does nothing): so what follows a quit never meets a half-exited app.
    ///
    /// - Throws: ``CLIError``: the app's error, or unavailable "… did not exit within the timeout".
    package static func quit(_ target: AppTarget, force: Bool, timeout: Duration) throws(CLIError) {
        let bus = try systemBus()
        let manager = SystemdManager(connection: bus)
        let instance = try unitStatus(target, manager)?.invocationID ?? ""
        try AppCLIClient(target, bus: bus).quit(force: force)
        try waitFor("\(target.app) did not exit", timeout: timeout) { () throws(CLIError) -> Probe<Void> in
            guard let status = try unitStatus(target, manager) else { return .done(()) }
            return hasExited(activeState: status.activeState, invocationID: status.invocationID, quit: instance)
                ? .done(()) : .notYet("\(target.unit) is \(status.activeState) (\(status.subState))")
        }
    }

    /// Whether the instance `quit` (its invocation id) has gone: the unit runs no process of it
    /// (neither active, reloading, activating nor deactivating), or runs another instance.
    package static func hasExited(activeState: String, invocationID: String, quit instance: String) -> Bool {
        let running: Set<String> = ["active", "reloading", "activating", "deactivating"]
        return !running.contains(activeState) || invocationID != instance
    }

    private static func unitStatus(_ target: AppTarget, _ manager: SystemdManager) throws(CLIError) -> UnitStatus? {
        do throws(BusError) {
            return try manager.unitStatus(target.unit)
        } catch {
            throw cliError(error, talkingTo: "systemd", hint: "is systemd running here?")
        }
    }

    /// Waits until the unit's current instance is active and says it finished launching.
    ///
    /// The app answers `Ready` only once it has restored; comparing its invocation id with the
    /// unit's current one makes sure the answer does not come from an instance that is dying.
    package static func waitReady(_ target: AppTarget, timeout: Duration) throws(CLIError) -> String {
        let bus = try systemBus()
        let manager = SystemdManager(connection: bus)
        return try waitFor("\(target.app) was not ready", timeout: timeout) { () throws(CLIError) -> Probe<String> in
            let status: UnitStatus?
            do throws(BusError) {
                status = try manager.unitStatus(target.unit)
            } catch where error.isUnreachable {
                return .notYet(error.message)
            } catch {
                throw cliError(error, talkingTo: "systemd", hint: "is systemd running here?")
            }
            guard let status, let current = Readiness.runningInstance(activeState: status.activeState, invocationID: status.invocationID) else {
                return .notYet("\(target.unit) is not active")
            }
            let answer = try AppCLIClient(target, bus: bus).ready()
            return Readiness.judge(finished: answer.finished, answeredBy: answer.invocationID, current: current)
        }
    }
}

/// Looks at a condition every `interval` milliseconds until it is done, at least once and until
/// `timeout` has passed (``Poll``); then fails with code unavailable: "WHAT within the timeout: what
/// the last look saw". A look that fails with code unavailable (a service not on the bus yet) counts
/// as not yet; any other failure ends the wait at once.
package func waitFor<Value>(
    _ what: String, timeout: Duration, interval: Int = 20, _ look: () throws(CLIError) -> Probe<Value>
) throws(CLIError) -> Value {
    try Poll(timeout: timeout).wait(every: interval, { () throws(CLIError) -> Probe<Value> in
        do throws(CLIError) {
            return try look()
        } catch where error.code == .unavailable {
            return .notYet(error.message)
        }
    }, expired: { seen in CLIError(.unavailable, "\(what) within the timeout: \(seen)") })
}

/// Runs a decoding step, turning a malformed reply into a failure that says so.
package func decode<T>(_ body: () throws(BusError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw .failed("unexpected reply: \(error.message)")
    }
}
