import PermissionStore
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// ``UnitController`` over systemd's D-Bus API (`org.freedesktop.systemd1`), on a link of its own.
///
/// The link is never the serving connection, reconnects when the bus or systemd went away
/// (dbus-daemon restarted, `systemctl daemon-reexec`), and every call is bounded by
/// ``callTimeout``, so a Set never waits sd-bus's 25 s default on a systemd that does not answer.
struct SystemdUnitController: UnitController {
    /// The link calls go through (used for nothing else that could block it).
    let link: BusLink
    /// The longest one call to systemd may take.
    static let callTimeout: Duration = .seconds(2)

    private static let unitInterface = "org.freedesktop.systemd1.Unit"
    private static let serviceInterface = "org.freedesktop.systemd1.Service"
    /// systemd's answer to KillUnit when the unit has no main process ("No main process to kill").
    static let noSuchProcessErrorName = "org.freedesktop.systemd1.NoSuchProcess"

    /// The InvocationID of the running instance: ActiveState `active`, `reloading` or `activating`
    /// and, for a service, a main process.
    ///
    /// The main-process test matters right after a kill: while systemd waits to restart the app
    /// (SubState `auto-restart`), ActiveState is `activating` but nothing runs, and KillUnit would
    /// fail with "No main process to kill". The next instance starts with the new state anyway.
    func runningInstance(of unit: String) async throws -> String? {
        let path = SystemdManager.unitObjectPath(unit)
        guard let state = try activeState(path) else { return nil }  // no such unit: nothing runs
        guard ["active", "reloading", "activating"].contains(state) else { return nil }
        if unit.hasSuffix(".service") {
            let mainPID = try property(path, Self.serviceInterface, "MainPID").uint64Value ?? 0
            guard mainPID != 0 else { return nil }
        }
        let id = SystemdManager.hex(try property(path, Self.unitInterface, "InvocationID").bytesValue ?? [])
        return id.isEmpty ? nil : id
    }

    /// Kills the main process of `unit` if `instance` is the one running (`KillUnit(unit, "main", 9)`).
    ///
    /// systemd 252 cannot kill by invocation id, so this reads the running instance first; the two
    /// calls are a few hundred microseconds apart, and a relaunch takes far longer than that.
    func kill(unit: String, instance: String) async throws -> KillDelivery {
        // The same instance (a restart gets a new InvocationID); if it no longer has a main
        // process, KillUnit says NoSuchProcess.
        let current = SystemdManager.hex(
            try property(SystemdManager.unitObjectPath(unit), Self.unitInterface, "InvocationID").bytesValue ?? [])
        guard current == instance else { return .gone }
        do throws(BusError) {
            try link.call(
                destination: SystemdManager.destination, path: SystemdManager.path,
                interface: SystemdManager.managerInterface, member: "KillUnit",
                arguments: [.string(unit), .string("main"), .int32(SIGKILL)], timeout: Self.callTimeout)
        } catch {
            // The app exited between the check and the kill: nothing left to apply it to.
            if error.name == Self.noSuchProcessErrorName { return .gone }
            if error.name == BusError.noReplyName {
                throw BusError(name: error.name, message: "systemd did not answer KillUnit within \(Self.callTimeout)")
            }
            throw error
        }
        return .killed
    }

    /// The unit's ActiveState, or nil when systemd knows no such unit.
    private func activeState(_ path: String) throws(BusError) -> String? {
        do throws(BusError) {
            return try property(path, Self.unitInterface, "ActiveState").stringValue ?? ""
        } catch {
            if error.name == SystemdManager.noSuchUnitErrorName || error.name == BusError.unknownObjectName { return nil }
            throw error
        }
    }

    private func property(_ path: String, _ interface: String, _ name: String) throws(BusError) -> BusValue {
        try link.call(
            destination: SystemdManager.destination, path: path, interface: "org.freedesktop.DBus.Properties",
            member: "Get", arguments: [.string(interface), .string(name)], timeout: Self.callTimeout
        ).variant(at: 0)
    }
}
