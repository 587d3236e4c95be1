/// What the permission service needs from systemd: is an app's unit running, and kill it.
///
/// permissiond implements it over `org.freedesktop.systemd1`; tests use a fake. The service
/// calls it only after a change is committed, and only when the kill policy says the change kills.
public protocol UnitController: Sendable {
    /// Whether `unit` is running: its ActiveState is `active`, `reloading` or `activating`.
    ///
    /// - Throws: when systemd cannot be asked; the service then reports `Failed` without killing.
    func isActive(unit: String) async throws -> Bool

    /// Sends SIGKILL to `unit`'s main process (`KillUnit(unit, "main", 9)`).
    ///
    /// - Returns: the `InvocationID` of the instance that was killed, read before the signal is sent
    ///   (32 lowercase hex digits as systemd prints it).
    /// - Throws: when the kill could not be sent; the service then reports `Failed`.
    ///   — or nil when the unit had no main process left to kill (it exited after `isActive` said yes).
    func kill(unit: String) async throws -> String?
}
