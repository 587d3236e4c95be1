import PermissionStore
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// ``UnitController`` over systemd's D-Bus API (`org.freedesktop.systemd1`), on a connection of its own.
///
/// The connection must not be the one serving `Permissions1`: these calls are made while that
/// connection's loop is blocked in a method handler, waiting for them. Each call blocks its thread
/// for one round trip (well under a millisecond; sd-bus gives up after 25 s).
struct SystemdUnitController: UnitController {
    /// The client connection to the system bus, used for nothing else.
    let manager: SystemdManager

    private static let unitInterface = "org.freedesktop.systemd1.Unit"
    private static let serviceInterface = "org.freedesktop.systemd1.Service"

    /// Talks to systemd over `connection` (not the serving one).
    init(connection: BusConnection) {
        manager = SystemdManager(connection: connection)
    }

    /// Whether `unit` has a process to kill: ActiveState `active`, `reloading` or `activating`, and,
    /// for a service, a main process.
    ///
    /// The main-process test matters right after a kill: while systemd waits to restart the app
    /// (SubState `auto-restart`), ActiveState is `activating` but nothing runs, and KillUnit would
    /// fail with "No main process to kill". The app then starts with the new state anyway.
    func isActive(unit: String) async throws -> Bool {
        guard let path = try loadedUnitPath(unit) else { return false }  // not loaded: not running
        let state = try property(path, Self.unitInterface, "ActiveState").stringValue ?? ""
        guard ["active", "reloading", "activating"].contains(state) else { return false }
        guard unit.hasSuffix(".service") else { return true }
        let mainPID = try property(path, Self.serviceInterface, "MainPID").uint64Value ?? 0
        return mainPID != 0
    }

    /// Reads the unit's InvocationID, then sends SIGKILL to its main process (`KillUnit(unit, "main", 9)`).
    ///
    /// - Returns: the InvocationID of the killed instance, as 32 lowercase hex digits.
    func kill(unit: String) async throws -> String? {
        let path = try manager.unitPath(unit)
        let invocationID = SystemdManager.hex(
            try property(path, Self.unitInterface, "InvocationID").bytesValue ?? [])
        do throws(BusError) {
            try manager.killUnit(unit, whom: "main", signal: SIGKILL)
        } catch {
            // The app exited between the isActive check and the kill: nothing left to apply it to.
            if error.name == Self.noSuchProcessErrorName { return nil }
            throw error
        }
        return invocationID
    }

    /// systemd's answer to KillUnit when the unit has no main process ("No main process to kill").
    static let noSuchProcessErrorName = "org.freedesktop.systemd1.NoSuchProcess"

    /// The unit's object path, or nil when systemd has not loaded it (never started since boot, or gone).
    private func loadedUnitPath(_ unit: String) throws(BusError) -> String? {
        do throws(BusError) {
            return try manager.unitPath(unit)
        } catch {
            if error.name == SystemdManager.noSuchUnitErrorName { return nil }
            throw error
        }
    }

    private func property(_ path: String, _ interface: String, _ name: String) throws(BusError) -> BusValue {
        try manager.connection.property(
            destination: SystemdManager.destination, path: path, interface: interface, name: name)
    }
}
