import RelaunchContract
import Systemd

/// Maps bus failures to the contract's exit codes with a line that says what to do.
func cliError(_ error: BusError, talkingTo service: String, hint: String) -> CLIError {
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
func systemBus() throws(CLIError) -> BusConnection {
    do {
        return try BusConnection.system()
    } catch {
        throw CLIError(.unavailable, "cannot connect to the system bus (\(error)); is dbus running here? "
            + "In the sandbox: scripts/sandbox exec -- relaunchctl ...")
    }
}

/// The permission daemon, org.relaunch.Permissions1.
struct PermissionsClient {
    let bus: BusConnection

    init() throws(CLIError) { bus = try systemBus() }

    /// The last kill permissiond recorded for an app (all empty and 0 when none).
    struct LastKill {
        var invocationID: String
        var permission: String
        var old: String
        var new: String
        var atUSec: UInt64
    }

    func get(app: String, permission: String) throws(CLIError) -> String {
        let reply = try call("Get", [.string(app), .string(permission)])
        return try decode { () throws(BusError) in try reply.string(at: 0) }
    }

    func list(app: String) throws(CLIError) -> [String: String] {
        let reply = try call("List", [.string(app)])
        return try decode { () throws(BusError) in try reply.stringDictionary(at: 0) }
    }

    func listApps() throws(CLIError) -> [String] {
        let reply = try call("ListApps", [])
        return try decode { () throws(BusError) in try reply.stringArray(at: 0) }
    }

    func set(app: String, permission: String, state: String) throws(CLIError) {
        _ = try call("Set", [.string(app), .string(permission), .string(state)])
    }

    func reset(app: String, permission: String) throws(CLIError) {
        _ = try call("Reset", [.string(app), .string(permission)])
    }

    func lastKill(app: String) throws(CLIError) -> LastKill {
        let reply = try call("LastKill", [.string(app)])
        let values = reply.count == 1 ? try decode { () throws(BusError) in try reply.structure(at: 0) } : reply
        return try decode { () throws(BusError) in
            LastKill(invocationID: try values.string(at: 0), permission: try values.string(at: 1),
                     old: try values.string(at: 2), new: try values.string(at: 3), atUSec: try values.uint64(at: 4))
        }
    }

    private func call(_ member: String, _ arguments: [BusValue]) throws(CLIError) -> BusValues {
        do {
            return try bus.call(destination: BusNames.Permissions.service, path: BusNames.Permissions.object,
                                interface: BusNames.Permissions.interface, member: member, arguments: arguments)
        } catch {
            throw cliError(error, talkingTo: "permissiond",
                           hint: "is permissiond.service running? (systemctl status permissiond)")
        }
    }
}

/// The demo app, org.relaunch.CheckInDemo1.
struct DemoClient {
    let bus: BusConnection

    init() throws(CLIError) { bus = try systemBus() }

    /// A client on an open connection.
    init(bus: BusConnection) { self.bus = bus }

    func tap(_ element: String) throws(CLIError) { try call("Tap", [.string(element)]) }
    func type(field: String, text: String) throws(CLIError) { try call("Type", [.string(field), .string(text)]) }
    func quit(force: Bool) throws(CLIError) { try call("Quit", [.bool(force)]) }
    func testHook(_ name: String) throws(CLIError) { try call("TestHook", [.string(name)]) }
    func screen() throws(CLIError) -> String { try text(of: "Screen") }
    func state() throws(CLIError) -> String { try text(of: "State") }

    private func text(of member: String) throws(CLIError) -> String {
        let reply = try call(member)
        return try decode { () throws(BusError) in try reply.string(at: 0) }
    }

    /// Whether the running instance finished launching, and its invocation id.
    func ready() throws(CLIError) -> (finished: Bool, invocationID: String) {
        let reply = try call("Ready")
        return try decode { () throws(BusError) in
            let values = reply.count == 1 ? try reply.structure(at: 0) : reply
            return (try values.bool(at: 0), try values.string(at: 1))
        }
    }

    @discardableResult
    func call(_ member: String, _ arguments: [BusValue] = []) throws(CLIError) -> BusValues {
        do {
            return try bus.call(destination: BusNames.CheckInDemo.service, path: BusNames.CheckInDemo.object,
                                interface: BusNames.CheckInDemo.interface, member: member, arguments: arguments)
        } catch {
            throw cliError(error, talkingTo: "checkin-demo",
                           hint: "is checkin-demo.service running? (systemctl status checkin-demo; relaunchctl app wait-ready)")
        }
    }

    /// Waits until the unit's current instance is active and says it finished launching.
    ///
    /// The app answers `Ready` only once it has restored; comparing its invocation id with the
    /// unit's current one makes sure the answer does not come from an instance that is dying.
    static func waitReady(timeout: Duration) throws(CLIError) -> String {
        let deadline = ContinuousClock.now + timeout
        let bus = try systemBus()
        let manager = SystemdManager(connection: bus)
        var lastProblem = "the unit is not active"
        while ContinuousClock.now < deadline {
            do {
                if let status = try manager.unitStatus(CheckInDemoApp.unit), status.activeState == "active",
                   !status.invocationID.isEmpty {
                    let (finished, invocation) = try DemoClient(bus: bus).ready()
                    if finished && invocation == status.invocationID { return invocation }
                    lastProblem = finished ? "the answering instance is not the unit's current one" : "still launching"
                } else {
                    lastProblem = "\(CheckInDemoApp.unit) is not active"
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
        throw CLIError(.unavailable, "checkin-demo was not ready within the timeout: \(lastProblem)")
    }
}

/// Runs a decoding step, turning a malformed reply into a failure that says so.
func decode<T>(_ body: () throws(BusError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw .failed("unexpected reply: \(error.message)")
    }
}
