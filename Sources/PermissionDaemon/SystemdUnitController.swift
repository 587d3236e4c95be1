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
/// ``callTimeout`` (``authorizedCallTimeout`` for the calls systemd asks polkit about) and completed
/// by the link's loop, so a Set never waits sd-bus's 25 s default on a systemd that does not answer,
/// and no call waits behind another caller's polkit prompt.
package struct SystemdUnitController: UnitController {
    /// The link calls go through.
    let link: BusLink

    package init(link: BusLink) {
        self.link = link
    }
    /// permissiond's own recent kills per unit, for the start limit (``keepStartLimitFor(_:)``).
    package let kills = StartLimitLedger()
    /// The longest one read of systemd (a property) may take: systemd answers it from memory.
    package static let callTimeout: Duration = .seconds(2)
    /// The longest `KillUnit` and `ResetFailedUnit` may take. systemd asks polkit before it acts on
    /// them (permissiond runs unprivileged), and polkitd serves every local user: on a machine under
    /// load its answer comes late, not wrong (a kill went past 2 s under `stress-ng --cpu 2` and the
    /// strangers' flood of HostileLoadChecks), and a kill that comes late is still the kill the user
    /// asked for. Past this bound the kill stays pending and the outbox goes on with it.
    package static let authorizedCallTimeout: Duration = .seconds(10)
    /// The most calls one ``runningInstance(of:)`` makes.
    package static let callsPerRunningInstance = 3
    /// The most reads one ``kill(unit:instance:)`` makes (the instance, the start limit's two).
    package static let readsPerKill = 3
    /// The most calls systemd asks polkit about in one ``kill(unit:instance:)`` (the start-limit
    /// reset, the kill).
    package static let authorizedCallsPerKill = 2

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
            let mainPID = try await property(path, Self.serviceInterface, "MainPID").uint64Value
            guard Self.hasMainProcess(mainPID) else { return nil }
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
        guard Self.isOwed(current: current, instance: instance) else { return .gone }
        await keepStartLimitFor(unit)
        do throws(BusError) {
            try await link.callAsync(
                destination: SystemdManager.destination, path: SystemdManager.path,
                interface: SystemdManager.managerInterface, member: "KillUnit",
                arguments: [.string(unit), .string("main"), .int32(SIGKILL)], timeout: Self.authorizedCallTimeout)
        } catch {
            guard let error = Self.killFailure(error) else { return .gone }
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
        let recent = kills.count(unit: unit, within: limit.interval, now: ContinuousClock.now)
        guard Self.resetsStartLimit(recentKills: recent, burst: limit.burst) else { return }
        do throws(BusError) {
            try await link.callAsync(
                destination: SystemdManager.destination, path: SystemdManager.path,
                interface: SystemdManager.managerInterface, member: "ResetFailedUnit",
                arguments: [.string(unit)], timeout: Self.authorizedCallTimeout)
            kills.forget(unit: unit)
        } catch {
            // Not fatal: the kill still applies the change; at worst the start limit ends the app.
        }
    }

    /// The unit's `StartLimitBurst=` and `StartLimitIntervalSec=`, or nil when it has no limit.
    private func startLimit(of unit: String) async -> (burst: Int, interval: Duration)? {
        if let known = kills.limit(of: unit) { return known }
        let path = SystemdManager.unitObjectPath(unit)
        guard let burst = try? await property(path, Self.unitInterface, "StartLimitBurst").uint64Value,
            let interval = try? await property(path, Self.unitInterface, "StartLimitIntervalUSec").uint64Value
        else { return nil }
        let limit = Self.startLimit(burst: burst, intervalUSec: interval)
        kills.remember(limit, of: unit)
        return limit
    }

    /// The unit's ActiveState, or nil when systemd knows no such unit.
    private func activeState(_ path: String) async throws(BusError) -> String? {
        do throws(BusError) {
            return try await property(path, Self.unitInterface, "ActiveState").stringValue ?? ""
        } catch {
            if Self.meansNoSuchUnit(error) { return nil }
            throw error
        }
    }

    // MARK: What systemd's answers mean (pure, so tests can tell)

    /// Whether the instance running now (`current`, its InvocationID; empty when none) is the one
    /// that owes the kill: a restart gets a new InvocationID, and a newer instance read the new state.
    package static func isOwed(current: String, instance: String) -> Bool {
        current == instance
    }

    /// Whether a service's `MainPID` names a process (0 or no answer: none).
    package static func hasMainProcess(_ mainPID: UInt64?) -> Bool {
        (mainPID ?? 0) != 0
    }

    /// What a failed KillUnit means: nil when the process was already gone (systemd's NoSuchProcess:
    /// the app exited between the check and the kill, nothing left to apply it to), else the error
    /// to report (a missing answer says which call and its bound).
    package static func killFailure(_ error: BusError) -> BusError? {
        if error.name == noSuchProcessErrorName { return nil }
        if error.name == BusError.noReplyName {
            return BusError(name: error.name, message: "systemd did not answer KillUnit within \(authorizedCallTimeout)")
        }
        return error
    }

    /// Whether a property read failed because systemd has no such unit loaded.
    package static func meansNoSuchUnit(_ error: BusError) -> Bool {
        error.name == SystemdManager.noSuchUnitErrorName || error.name == BusError.unknownObjectName
    }

    /// The start limit from `StartLimitBurst=` and `StartLimitIntervalUSec=`; nil when there is none
    /// (a burst of 0, or an interval of 0, which turns the limit off).
    package static func startLimit(burst: UInt64, intervalUSec: UInt64) -> (burst: Int, interval: Duration)? {
        guard burst > 0, intervalUSec > 0 else { return nil }
        return (Int(clamping: burst), .microseconds(Int64(clamping: intervalUSec)))
    }

    /// Whether permissiond's own kills of a unit within its start-limit interval have reached half its
    /// burst (at least one), so its failure state is reset before the next kill.
    package static func resetsStartLimit(recentKills: Int, burst: Int) -> Bool {
        recentKills >= max(1, burst / 2)
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
        /// The limits read, per unit; nil for a unit without one (so it is not read again).
        var limits: [String: (burst: Int, interval: Duration)?] = [:]
    }
    private let state = Mutex(State())

    package init() {}

    package func record(unit: String, at instant: ContinuousClock.Instant) {
        state.withLock { $0.kills[unit, default: []].append(instant) }
    }

    /// How many kills of `unit` were recorded within `interval` before `now` (older ones are dropped).
    package func count(unit: String, within interval: Duration, now: ContinuousClock.Instant) -> Int {
        state.withLock { state in
            let recent = (state.kills[unit] ?? []).filter { now - $0 < interval }
            state.kills[unit] = recent
            return recent.count
        }
    }

    package func forget(unit: String) {
        state.withLock { $0.kills[unit] = nil }
    }

    /// The limit read for `unit`: nil when not read yet, `.some(nil)` when it has none.
    func limit(of unit: String) -> (burst: Int, interval: Duration)?? {
        state.withLock { $0.limits[unit] }
    }

    func remember(_ limit: (burst: Int, interval: Duration)?, of unit: String) {
        state.withLock { $0.limits[unit] = .some(limit) }
    }

    /// Forgets the limits read (a reload may have changed the units).
    package func forgetLimits() {
        state.withLock { $0.limits.removeAll() }
    }
}
