package import RelaunchBus
import RelaunchContract
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

    /// Waits until the unit's current instance is active and says it finished launching.
    ///
    /// The app answers `Ready` only once it has restored; comparing its invocation id with the
    /// unit's current one makes sure the answer does not come from an instance that is dying.
    package static func waitReady(_ target: AppTarget, timeout: Duration) throws(CLIError) -> String {
        let deadline = ContinuousClock.now + timeout
        let bus = try systemBus()
        let manager = SystemdManager(connection: bus)
        var lastProblem = "the unit is not active"
        while ContinuousClock.now < deadline {
            do {
                if let status = try manager.unitStatus(target.unit), status.activeState == "active",
                   !status.invocationID.isEmpty {
                    let (finished, invocation) = try AppCLIClient(target, bus: bus).ready()
                    if finished && invocation == status.invocationID { return invocation }
                    lastProblem = finished ? "the answering instance is not the unit's current one" : "still launching"
                } else {
                    lastProblem = "\(target.unit) is not active"
                }
            } catch let error as CLIError where error.code == .unavailable {
                lastProblem = error.message
            } catch let error as BusError where error.isUnreachable {
                lastProblem = error.message
            } catch let error as BusError {
                throw cliError(error, talkingTo: "systemd", hint: "is systemd running here?")
            } catch let error as CLIError {
                throw error
            } catch {
                throw .failed("\(error)")
            }
            pause(milliseconds: 20)
        }
        throw CLIError(.unavailable, "\(target.app) was not ready within the timeout: \(lastProblem)")
    }
}

/// Runs a decoding step, turning a malformed reply into a failure that says so.
package func decode<T>(_ body: () throws(BusError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw .failed("unexpected reply: \(error.message)")
    }
}
