import Foundation
import RelaunchTestSupport
import Synchronization
import Systemd

/// What the permissiond suites need beyond `Permissiond.swift`: the journal's entries after a mark, a
/// barrier that says permissiond logged everything before, the kill and no-kill verdicts, the kill
/// policy's drop-in and the Changed signals (permissiond.sh's pd_* helpers).
extension Permissiond {
    static let daemon = "permissiond.service"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

    /// permissiond is active (Type=dbus: its name is on the bus).
    static func daemonReady() throws { try Units.waitActive(daemon) }

    /// The app's unit is active.
    static func appReady() throws { try Units.waitActive(unit) }

    /// An app id no earlier run used (the sandbox's database outlives a run).
    static func freshApp(_ prefix: String) -> String { "\(prefix)-\(UInt32.random(in: 100_000...999_999))" }

    /// Removes every test app registered under `prefix` (`prefix*.conf` in /run/relaunch/apps.d) and
    /// reloads permissiond.
    static func unregister(prefix: String) throws {
        let folder = "/run/relaunch/apps.d"
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where file.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: "\(folder)/\(file)")
        }
        try Command.expect(0, ["systemctl", "reload", daemon])
    }

    // MARK: The journal

    /// The entries after `mark` with MESSAGE_ID `id` and every field of `fields`, as they are now.
    ///
    /// The fields are compared here, not given to sd-journal as matches: systemd 252 can skip matching
    /// entries after a seek (see RelaunchctlCore's UnitState).
    static func entries(_ id: String, after mark: Journal.Mark, _ fields: [String: String]) throws -> [JournalEntry] {
        try Journal.entries([:], after: mark, timeout: .zero) { _ in true }.filter { has($0, id, fields) }
    }

    /// Waits (60 s at most) for an entry after `mark` with MESSAGE_ID `id` and every field of `fields`.
    @discardableResult
    static func expectEntry(_ id: String, after mark: Journal.Mark, _ fields: [String: String], _ what: String) throws -> JournalEntry {
        var found: JournalEntry?
        var seen = 0
        do {
            _ = try Journal.entries([:], after: mark, timeout: .seconds(60)) { all in
                seen = all.count
                found = all.first { has($0, id, fields) }
                return found != nil
            }
        } catch is CheckFailure {}
        guard let found else {
            let wanted = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            throw CheckFailure(
                "\(what) was not logged: no entry with MESSAGE_ID=\(id) \(wanted) among the \(seen) entries after the mark (waited 60 s)")
        }
        return found
    }

    private static func has(_ entry: JournalEntry, _ id: String, _ fields: [String: String]) -> Bool {
        entry.messageID == id && fields.allSatisfy { entry[$0.key] == $0.value }
    }

    /// An app of the barrier's own (never killed), registered on first use.
    static let barrierApp = "pd-barrier"

    /// Returns once permissiond has logged a change made after everything before: its effects are
    /// performed in order, so anything it was going to log for earlier calls is in the journal.
    static func journalBarrier(after mark: Journal.Mark) throws {
        if try Command.run(Bus.call(Bus.permissions, "Get", "ss", barrierApp, "camera")).status != 0 {
            try register(barrierApp)
        }
        let new = other(than: try get(barrierApp, "camera"))
        try call("Set", "sss", barrierApp, "camera", new)
        try expectEntry(changedID, after: mark, ["APP_ID": barrierApp, "NEW_STATE": new], "the barrier's change")
    }

    // MARK: Kills

    /// The app was killed for PERMISSION after `mark` (permissiond's entry, systemd's exit entry with
    /// status 9) and relaunched (NRestarts is `restarts` + 1), and LastKill names the killed instance.
    static func expectKill(after mark: Journal.Mark, _ permission: String, restarts: Int, invocation: String) throws {
        try Units.waitForRestarts(unit, restarts + 1)
        try appReady()
        try expectEntry(
            killedID, after: mark,
            [
                "APP_ID": app, "UNIT": unit, "PERMISSION": permission, "SIGNAL": "KILL",
                "SYSLOG_IDENTIFIER": "permissiond", "KILLED_INVOCATION_ID": invocation,
            ], "permissiond's kill entry for \(permission) (killed invocation \(invocation))")
        try expectEntry(
            systemdExitID, after: mark, ["UNIT": unit, "EXIT_CODE": "killed", "EXIT_STATUS": "9"],
            "systemd's 'Main process exited' (killed, status 9) of \(unit)")
        let kill = try lastKill()
        guard kill.contains("\"\(invocation)\" \"\(permission)\"") else {
            throw CheckFailure("LastKill after the kill: expected the instance \(invocation) and \(permission), saw \(kill)")
        }
        let now = try Units.property(unit, "InvocationID")
        guard now != invocation else { throw CheckFailure("the app's InvocationID did not change: still \(now)") }
    }

    /// PERMISSION changed to NEW after `mark`, logged with KILL=false, and the app was not killed:
    /// LastKill is still `before` (a kill is recorded before the Set is answered) and no kill entry was
    /// logged (checked once the journal barrier says everything before is in).
    static func expectNoKill(after mark: Journal.Mark, _ permission: String, new: String, lastKill before: String) throws {
        let now = try lastKill()
        guard now == before else {
            throw CheckFailure("LastKill (the app must not have been killed): expected \(before), saw \(now)")
        }
        try expectEntry(
            changedID, after: mark,
            ["APP_ID": app, "PERMISSION": permission, "NEW_STATE": new, "KILL": "false", "CALLER_UID": "0"],
            "the change of \(permission) to \(new) with KILL=false")
        try journalBarrier(after: mark)
        let kills = try entries(killedID, after: mark, ["APP_ID": app])
        guard kills.isEmpty else {
            throw CheckFailure("permissiond logged a kill for \(permission): \(kills.map { $0.message ?? "" })")
        }
    }

    // MARK: The kill policy

    /// The drop-in of the checks' kill policy; its name sorts after the scenario runner's
    /// (50-relaunch-scenario-policy.conf, which a scenario played earlier leaves at ios).
    static let policyDropIn = "90-relaunch-check-kill-policy.conf"

    /// Where a runtime drop-in for permissiond.service takes effect: the runtime drop-in folder when
    /// the unit path has /run/systemd/system, else the sandbox's own unit folder (its first entry).
    static func dropInFolder() throws -> String {
        let path = try Command.expect(0, ["systemctl", "show", "-P", "UnitPath"]).line.split(separator: " ").map(String.init)
        if path.contains("/run/systemd/system") { return "/run/systemd/system/\(daemon).d" }
        return "\(path.first ?? "/run/systemd/system")/\(daemon).d"
    }

    /// Switches permissiond's kill policy (`ios`, `android`, or nil for its default) with a drop-in
    /// setting RELAUNCH_KILL_POLICY, as the scenario runner does, then restarts it and waits for it.
    static func setPolicy(_ policy: String?) throws {
        let folder = try dropInFolder()
        if !folder.hasPrefix("/run/") {
            print("note: the sandbox's unit path lacks /run/systemd/system: the kill-policy drop-in went to \(folder)")
        }
        let file = "\(folder)/\(policyDropIn)"
        if let policy {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "[Service]\nEnvironment=RELAUNCH_KILL_POLICY=\(policy)\n".write(toFile: file, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(atPath: file)
        }
        try Command.expect(0, ["systemctl", "daemon-reload"])
        try Command.expect(0, ["systemctl", "restart", daemon])
        try daemonReady()
        if let policy {
            let environment = try Units.property(daemon, "Environment")
            guard environment.contains("RELAUNCH_KILL_POLICY=\(policy)") else {
                throw CheckFailure("permissiond's environment (drop-in in \(folder)) lacks RELAUNCH_KILL_POLICY=\(policy): \(environment)")
            }
        }
    }
}

/// The Changed signals of Permissions1, as a client on the system bus receives them: subscribed
/// before the calls that cause them (the match is in the bus daemon once `init` returns).
final class ChangedSignals: Sendable {
    /// One Changed: app, permission, old state, new state, whether the app was killed.
    struct Change: Sendable, CustomStringConvertible {
        var app, permission, old, new: String
        var killed: Bool
        var description: String { "[\(app), \(permission), \(old), \(new), \(killed)]" }
    }

    /// What came so far, appended by the subscription's handler.
    private final class Inbox: Sendable {
        let changes = Mutex<[Change]>([])
    }

    private let bus: BusConnection
    private let subscription: BusSubscription
    private let inbox: Inbox

    init() throws {
        let bus = try BusConnection.system()
        let inbox = Inbox()
        let rule = BusMatchRule(path: Bus.permissions[1], interface: Bus.permissions[2], member: "Changed")
        subscription = try bus.subscribe(rule) { signal in
            let values = signal.arguments
            guard let change = try? Change(
                app: values.string(at: 0), permission: values.string(at: 1), old: values.string(at: 2),
                new: values.string(at: 3), killed: values.bool(at: 4))
            else { return }
            inbox.changes.withLock { $0.append(change) }
        }
        self.bus = bus
        self.inbox = inbox
    }

    deinit { subscription.cancel() }

    /// Returns once a Changed matching `wanted` came (60 s at most); throws naming what came instead.
    func wait(for what: String, _ wanted: (Change) -> Bool) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while true {
            if inbox.changes.withLock({ $0.contains(where: wanted) }) { return }
            let left = deadline - clock.now
            guard left > .zero else {
                throw CheckFailure("timed out after 60 s waiting for the Changed signal \(what); received: \(inbox.changes.withLock { $0 })")
            }
            // Wakes when a message arrives, or at the bound.
            try bus.processPending(waitingUpTo: min(left, .seconds(1)))
        }
    }
}
