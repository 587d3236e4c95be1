package import PermissionStore
import Synchronization
package import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// ``UnitController`` over systemd's D-Bus API (`org.freedesktop.systemd1`), on a link of its own.
///
/// The link is never the serving connection, reconnects when the bus or systemd went away
/// (dbus-daemon restarted, `systemctl daemon-reexec`), and every call is bounded by
/// ``callTimeout`` and completed by the link's loop, so a Set never waits sd-bus's 25 s default on
/// a systemd that does not answer, and no call waits behind another caller's polkit prompt.
package struct SystemdUnitController: UnitController {
    /// The link calls go through.
    let link: BusLink

    package init(link: BusLink) {
        self.link = link
    }
    /// permissiond's own recent kills per unit, for the start limit (``keepStartLimitFor(_:)``).
    package let kills = StartLimitLedger()
    /// The longest one call to systemd may take.
    static let callTimeout: Duration = .seconds(2)
    /// The most calls one ``runningInstance(of:)`` makes.
    static let callsPerRunningInstance = 3
    /// The most calls one ``kill(unit:instance:)`` makes (with the start-limit reset and its reads).
    static let callsPerKill = 5

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
    package func runningInstance(of unit: String) async throws -> String? {
        let path = SystemdManager.unitObjectPath(unit)
        guard let state = try await activeState(path) else { return nil }  // no such unit: nothing runs
        guard ["active", "reloading", "activating"].contains(state) else { return nil }
        if unit.hasSuffix(".service") {
            let mainPID = try await property(path, Self.serviceInterface, "MainPID").uint64Value ?? 0
            guard mainPID != 0 else { return nil }
        }
        let id = SystemdManager.hex(try await property(path, Self.unitInterface, "InvocationID").bytesValue ?? [])
        return id.isEmpty ? nil : id
    }

    /// Kills the main process of `unit` if `instance` is the one running (`KillUnit(unit, "main", 9)`).
    ///
    /// systemd 252 cannot kill by invocation id, so this reads the running instance first; the two
    /// calls are a few hundred microseconds apart, and a relaunch takes far longer than that.
    /// Before the kill, the unit's start limit is kept clear of permissiond's own kills
    /// (``keepStartLimitFor(_:)``): a permission kill is not a crash.
    package func kill(unit: String, instance: String) async throws -> KillDelivery {
        // The same instance (a restart gets a new InvocationID); if it no longer has a main
        // process, KillUnit says NoSuchProcess.
        let current = SystemdManager.hex(
            try await property(SystemdManager.unitObjectPath(unit), Self.unitInterface, "InvocationID").bytesValue ?? [])
        guard current == instance else { return .gone }
        await keepStartLimitFor(unit)
        do throws(BusError) {
            try await link.callAsync(
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
        kills.record(unit: unit, at: ContinuousClock.now)
        return .killed
    }

    /// Keeps permissiond's kills from filling the unit's start limit.
    ///
    /// systemd counts every start, also the restart after a kill that permissiond asked for, against
    /// `StartLimitBurst=` in `StartLimitIntervalSec=`; a burst of permission changes (a test toggling
    /// fast, a user flipping a switch) would end the app in `start-limit-hit`, which iOS never does.
    /// So once permissiond's own kills of the unit within the interval reach half the burst, it
    /// resets the unit's failure state (`ResetFailedUnit`, which zeroes the start-limit counter
    /// and NRestarts) before the next kill. Crashes alone never reach this: a true crash loop
    /// still ends in start-limit-hit. A reset that fails is logged by its absence only: the kill
    /// goes on (it is what the user asked for).
    func keepStartLimitFor(_ unit: String) async {
        guard let limit = await startLimit(of: unit) else { return }
        guard kills.count(unit: unit, within: limit.interval, now: ContinuousClock.now) >= max(1, limit.burst / 2) else { return }
        do throws(BusError) {
            try await link.callAsync(
                destination: SystemdManager.destination, path: SystemdManager.path,
                interface: SystemdManager.managerInterface, member: "ResetFailedUnit",
                arguments: [.string(unit)], timeout: Self.callTimeout)
            kills.forget(unit: unit)
        } catch {
            // Not fatal: the kill still applies the change; at worst the start limit ends the app.
        }
    }

    /// The unit's `StartLimitBurst=` and `StartLimitIntervalSec=`, or nil when it has no limit.
    private func startLimit(of unit: String) async -> (burst: Int, interval: Duration)? {
        if let known = kills.limit(of: unit) { return known.burst > 0 ? known : nil }
        let path = SystemdManager.unitObjectPath(unit)
        guard let burst = try? await property(path, Self.unitInterface, "StartLimitBurst").uint64Value,
            let interval = try? await property(path, Self.unitInterface, "StartLimitIntervalUSec").uint64Value
        else { return nil }
        let limit = (burst: interval == 0 ? 0 : Int(clamping: burst), interval: Duration.microseconds(Int64(clamping: interval)))
        kills.remember(limit, of: unit)
        return limit.burst > 0 ? limit : nil
    }

    /// The unit's ActiveState, or nil when systemd knows no such unit.
    private func activeState(_ path: String) async throws(BusError) -> String? {
        do throws(BusError) {
            return try await property(path, Self.unitInterface, "ActiveState").stringValue ?? ""
        } catch {
            if error.name == SystemdManager.noSuchUnitErrorName || error.name == BusError.unknownObjectName { return nil }
            throw error
        }
    }

    private func property(_ path: String, _ interface: String, _ name: String) async throws(BusError) -> BusValue {
        try await link.callAsync(
            destination: SystemdManager.destination, path: path, interface: "org.freedesktop.DBus.Properties",
            member: "Get", arguments: [.string(interface), .string(name)], timeout: Self.callTimeout
        ).variant(at: 0)
    }
}

/// permissiond's own kills per unit within the unit's start-limit interval, and the limits read.
package final class StartLimitLedger: Sendable {
    private struct State {
        var kills: [String: [ContinuousClock.Instant]] = [:]
        var limits: [String: (burst: Int, interval: Duration)] = [:]
    }
    private let state = Mutex(State())

    func record(unit: String, at instant: ContinuousClock.Instant) {
        state.withLock { $0.kills[unit, default: []].append(instant) }
    }

    /// How many kills of `unit` were recorded within `interval` before `now` (older ones are dropped).
    func count(unit: String, within interval: Duration, now: ContinuousClock.Instant) -> Int {
        state.withLock { state in
            let recent = (state.kills[unit] ?? []).filter { now - $0 < interval }
            state.kills[unit] = recent
            return recent.count
        }
    }

    func forget(unit: String) {
        state.withLock { $0.kills[unit] = nil }
    }

    func limit(of unit: String) -> (burst: Int, interval: Duration)? {
        state.withLock { $0.limits[unit] }
    }

    func remember(_ limit: (burst: Int, interval: Duration), of unit: String) {
        state.withLock { $0.limits[unit] = limit }
    }

    /// Forgets the limits read (a reload may have changed the units).
    package func forgetLimits() {
        state.withLock { $0.limits.removeAll() }
    }
}
