import Dispatch
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
    /// Asks a standby of `unit`'s main process `pid` to SIGKILL it (permissiond's `KillMainProcess`
    /// signal); false when the request could not be sent. Nil: every kill goes through systemd.
    package typealias StandbyKillRequest = @Sendable (_ unit: String, _ pid: UInt32) -> Bool
    let requestStandbyKill: StandbyKillRequest?

    package init(link: BusLink, standbys: StandbyRegistry = StandbyRegistry(), requestStandbyKill: StandbyKillRequest? = nil) {
        self.link = link
        self.standbys = standbys
        self.requestStandbyKill = requestStandbyKill
    }
    /// permissiond's own recent kills per unit, for the start limit (``keepStartLimitFor(_:)``).
    package let kills = StartLimitLedger()
    /// The standbys that said they are there, and each unit's main process as last read.
    package let standbys: StandbyRegistry
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
    /// The most reads one ``kill(unit:instance:)`` makes (the instance, the main process for the
    /// standby route, the start limit's two).
    package static let readsPerKill = 4
    /// How long a standby has to SIGKILL the main process it stands by for before permissiond asks
    /// systemd to (``kill(unit:instance:)``). It does so within a millisecond or two; the bound is paid
    /// only when a standby that said it is there does not act (hung, stopped, or not a standby at all:
    /// only the app's own processes can say so, and they delay only their own app's kill).
    package static let standbyKillBound: Duration = .milliseconds(100)
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
        var mainPID: UInt64?
        if unit.hasSuffix(".service") {
            mainPID = try await property(path, Self.serviceInterface, "MainPID").uint64Value
            guard Self.hasMainProcess(mainPID) else { return nil }
        }
        let id = SystemdManager.hex(try await property(path, Self.unitInterface, "InvocationID").bytesValue ?? [])
        // A main process this daemon SIGKILLed runs no more code, though systemd, busy, may not have
        // seen it end yet: nothing that could hold the old state runs (as in `activating` above).
        if let mainPID, standbys.wasKilled(mainPID, of: unit, invocation: id, now: ContinuousClock.now) { return nil }
        if let mainPID, !id.isEmpty { standbys.saw(mainPID, of: unit, invocation: id, at: ContinuousClock.now) }
        return id.isEmpty ? nil : id
    }

    /// Kills the main process of `unit` if `instance` is the one running (`KillUnit(unit, "main", 9)`).
    ///
    /// systemd 252 cannot kill by invocation id, so this reads the running instance first; the two
    /// calls are a few hundred microseconds apart, and a relaunch takes far longer than that.
    /// A unit whose standby said it is there is first given to it
    /// (``killedByStandby(_:mainPID:path:request:)``); only when its main process is not gone within
    /// ``standbyKillBound`` does systemd kill it.
    /// Before systemd's kill, the unit's start limit is kept clear of permissiond's own kills
    /// (``keepStartLimitFor(_:)``): a permission kill is not a crash.
    package func kill(unit: String, instance: String) async throws -> KillDelivery {
        if let asked = standbys.takeAsked(unit: unit, invocation: instance) {
            // Asked for before the commit (``requestKill(unit:instance:)``): wait for it; systemd kills
            // a process that is not gone within the bound, as below.
            if await asked.exited(within: Self.standbyKillBound) {
                standbys.killed(UInt64(asked.pid), of: unit, invocation: instance, at: ContinuousClock.now)
                return .killed
            }
        }
        // The same instance (a restart gets a new InvocationID); if it no longer has a main
        // process, KillUnit says NoSuchProcess.
        let path = SystemdManager.unitObjectPath(unit)
        // Right after the commit read the running instance (the first attempt of a change), its
        // answer still holds: a relaunch takes far longer than ``freshness``.
        let fresh = standbys.fresh(unit: unit, invocation: instance, now: ContinuousClock.now)
        if fresh == nil {
            let current = SystemdManager.hex(try await property(path, Self.unitInterface, "InvocationID").bytesValue ?? [])
            guard Self.isOwed(current: current, instance: instance) else { return .gone }
        }
        if let requestStandbyKill,
            let pid = try await killedByStandby(unit, mainPID: fresh, path: path, request: requestStandbyKill)
        {
            standbys.killed(UInt64(pid), of: unit, invocation: instance, at: ContinuousClock.now)
            return .killed
        }
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
        if let fresh { standbys.killed(fresh, of: unit, invocation: instance, at: ContinuousClock.now) }
        return .killed
    }

    /// Asks the standby of `unit`'s main process to SIGKILL it now, without waiting (the standby
    /// route of ``killedByStandby(_:mainPID:path:request:)``), when `instance` was read as running
    /// within ``StandbyRegistry/freshness`` and a standby said it is there: the service asks before it
    /// commits, and the next ``kill(unit:instance:)`` of `instance` waits for this one.
    package func requestKill(unit: String, instance: String) -> Bool {
        guard let requestStandbyKill, unit.hasSuffix(".service"), standbys.hasAny(unit: unit),
            let mainPID = standbys.fresh(unit: unit, invocation: instance, now: ContinuousClock.now),
            let process = askStandby(unit, toKill: mainPID, request: requestStandbyKill)
        else { return false }
        standbys.asked(process, of: unit, invocation: instance)
        return true
    }

    /// Pins `mainPID` and asks `unit`'s standby to SIGKILL it, when a standby other than that process
    /// is alive; the pinned process, or nil when nothing was asked.
    private func askStandby(_ unit: String, toKill mainPID: UInt64, request: StandbyKillRequest) -> ProcessHandle? {
        guard let pid = Self.signalablePID(mainPID), standbys.hasStandby(unit: unit, besides: pid),
            let process = try? ProcessHandle(pid: pid), request(unit, UInt32(pid))
        else { return nil }
        return process
    }

    /// The standby route (docs/DESIGN.md, "The standby"): when a standby of the unit's main process
    /// said it is there (`Lifecycle(app, "standby")`, ``StandbyRegistry``), pins the main process, asks
    /// the standby to SIGKILL it and waits up to ``standbyKillBound`` for it to be gone.
    ///
    /// systemd asks polkit before every KillUnit of an unprivileged caller, which takes most of a
    /// kill's time; the standby runs as the app's own user in the app's unit, so it may signal the
    /// process itself, and it does only on this daemon's word (the signal's sender). The kill stays
    /// enforced: a process not gone within the bound is killed by systemd. A unit without a standby
    /// that said so (none configured, or one still starting) goes to systemd at once. Returns the
    /// process killed, when it is gone; nil otherwise.
    private func killedByStandby(
        _ unit: String, mainPID known: UInt64?, path: String, request: StandbyKillRequest
    ) async throws(BusError) -> Int32? {
        guard unit.hasSuffix(".service"), standbys.hasAny(unit: unit) else { return nil }
        var mainPID = known ?? 0
        if known == nil { mainPID = try await property(path, Self.serviceInterface, "MainPID").uint64Value ?? 0 }
        guard let process = askStandby(unit, toKill: mainPID, request: request) else { return nil }
        return await process.exited(within: Self.standbyKillBound) ? process.pid : nil
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

    /// A `MainPID` as a pid one may pin and signal: nil for none (0) and for what no pid can be.
    package static func signalablePID(_ mainPID: UInt64) -> Int32? {
        (1...UInt64(Int32.max)).contains(mainPID) ? Int32(mainPID) : nil
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

/// The standbys that told permissiond they are there (`Lifecycle(app, "standby")` from a process of the
/// app's unit), one per unit, each pinned by a pidfd; and the main process of each unit's running
/// instance as last read.
package final class StandbyRegistry: Sendable {
    private let standbys = Mutex<[String: ProcessHandle]>([:])
    /// The main process each unit's running instance had when last read, and when.
    private let seen = Mutex<[String: (invocation: String, mainPID: UInt64, at: ContinuousClock.Instant)]>([:])
    /// The main process each unit's kill was asked for ahead of the commit (``asked(_:of:invocation:)``).
    private let askedKills = Mutex<[String: (invocation: String, process: ProcessHandle)]>([:])
    /// The main process this daemon last SIGKILLed per unit (``killed(_:of:invocation:at:)``).
    private let lastKilled = Mutex<[String: (invocation: String, mainPID: UInt64, at: ContinuousClock.Instant)]>([:])
    /// How long after its kill a main process systemd still names is taken for the killed one: far
    /// longer than systemd takes to see a process end, even busy, far shorter than the pids of a
    /// 2-core machine take to come round (`kernel.pid_max`, 32768 and more).
    package static let killedMemory: Duration = .seconds(1)
    /// How long a reading of the running instance and its main process stands in for a new one.
    package static let freshness: Duration = .milliseconds(20)

    package init() {}

    /// Takes `pid`, a process of `unit`, as its standby (the newest one counts).
    package func register(unit: String, pid: UInt32) {
        guard let process = try? ProcessHandle(pid: Int32(bitPattern: pid)) else { return }  // gone already
        standbys.withLock { $0[unit] = process }
    }

    /// Whether some standby of `unit` said it is there (alive or not: no system call).
    package func hasAny(unit: String) -> Bool {
        standbys.withLock { $0[unit] != nil }
    }

    /// Whether `unit` has a standby for the main process `mainPID`: one said it is there, it is alive,
    /// and it is not that main process (a standby that took over is the main process now).
    package func hasStandby(unit: String, besides mainPID: Int32) -> Bool {
        standbys.withLock { standbys in
            guard let standby = standbys[unit] else { return false }
            guard standby.isAlive else {
                standbys[unit] = nil
                return false
            }
            return standby.pid != mainPID
        }
    }

    /// Keeps `process`, the main process of `invocation` of `unit`, whose kill was asked for ahead of
    /// the commit, until ``takeAsked(unit:invocation:)`` (the newest one counts).
    package func asked(_ process: ProcessHandle, of unit: String, invocation: String) {
        askedKills.withLock { $0[unit] = (invocation, process) }
    }

    /// The process of `invocation` of `unit` whose kill was asked for ahead of the commit, taken.
    package func takeAsked(unit: String, invocation: String) -> ProcessHandle? {
        askedKills.withLock { asked in
            guard let kill = asked[unit], kill.invocation == invocation else { return nil }
            asked[unit] = nil
            return kill.process
        }
    }

    /// Notes that this daemon SIGKILLed `mainPID`, the main process of `invocation` of `unit`.
    package func killed(_ mainPID: UInt64, of unit: String, invocation: String, at instant: ContinuousClock.Instant) {
        lastKilled.withLock { $0[unit] = (invocation, mainPID, instant) }
    }

    /// Whether `mainPID` of `invocation` of `unit` is the process this daemon SIGKILLed there less than
    /// ``killedMemory`` ago (systemd, busy, may still name it as the main process).
    package func wasKilled(_ mainPID: UInt64, of unit: String, invocation: String, now: ContinuousClock.Instant) -> Bool {
        lastKilled.withLock { killed in
            guard let last = killed[unit] else { return false }
            return last.invocation == invocation && last.mainPID == mainPID && now - last.at < Self.killedMemory
        }
    }

    package func saw(_ mainPID: UInt64, of unit: String, invocation: String, at instant: ContinuousClock.Instant) {
        seen.withLock { $0[unit] = (invocation, mainPID, instant) }
    }

    /// The main process of `invocation` of `unit` when it was read less than ``freshness`` ago.
    package func fresh(unit: String, invocation: String, now: ContinuousClock.Instant) -> UInt64? {
        seen.withLock { seen in
            guard let last = seen[unit], last.invocation == invocation, now - last.at < Self.freshness else { return nil }
            return last.mainPID
        }
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

extension ProcessHandle {
    /// Whether the pinned process exits within `bound` (waited for on a dispatch thread, never on the
    /// cooperative pool).
    func exited(within bound: Duration) async -> Bool {
        let milliseconds = Int32(min(Double(Int32.max), max(0, (bound / .milliseconds(1)).rounded(.up))))
        return await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async { done.resume(returning: self.waitUntilExited(milliseconds: milliseconds)) }
        }
    }
}
