import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd
import Testing

/// checkin-demo with a standby (systemd/standby/standby.conf as a runtime drop-in; docs/DESIGN.md,
/// "The standby"): a permission kill is taken over by the standby, which had read nothing, inside the
/// same unit; the killed process is gone and SIGKILLed as before; the new main process is systemd's to
/// supervise (its journal entries name the unit, `systemctl status` shows it, the watchdog aborts it);
/// a crash is never taken over, so a crash loop still ends; the exposure stays ≤ 0.5. Each check puts
/// the drop-in back in a `defer`.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct StandbyChecks {
    private let unit = Demo.unit
    private static let dropIn = "/run/systemd/system/\(Demo.unit).d/50-standby-check.conf"
    private static let limitDropIn = "/run/systemd/system/\(Demo.unit).d/51-standby-check-limit.conf"
    private static let tookOverID = MessageID.standbyTookOver.rawValue

    /// The unit with the standby drop-in (the repository's file), restarted fresh; returns the main
    /// process and its standby once both are there.
    @discardableResult
    private static func withStandby() throws -> (main: Int32, standby: Int32, template: Int32) {
        let source = try String(contentsOfFile: Self.repositoryFile("systemd/standby/standby.conf"), encoding: .utf8)
        try FileManager.default.createDirectory(atPath: (dropIn as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writeFile(dropIn, source)
        try Command.expect(0, ["systemctl", "daemon-reload"])
        try Command.expect(0, ["systemctl", "reset-failed", Demo.unit])
        try Demo.restartFresh()
        return try waitForStandby()
    }

    /// Removes the drop-ins and starts the unit as shipped again.
    private static func withoutStandby() {
        try? FileManager.default.removeItem(atPath: dropIn)
        try? FileManager.default.removeItem(atPath: limitDropIn)
        Cleanup.undo("the unit without its standby") {
            try Command.expect(0, ["systemctl", "daemon-reload"])
            _ = try? Command.run(["systemctl", "reset-failed", Demo.unit])
            try Command.expect(0, ["systemctl", "restart", Demo.unit])
            try Demo.waitReady()
        }
    }

    /// A file of the checkout (the tests run from its root inside the sandbox).
    private static func repositoryFile(_ path: String) -> String {
        FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The unit's processes (its cgroup.procs).
    private static func processes() throws -> [Int32] {
        let group = try Units.property(Demo.unit, "ControlGroup")
        let text = try String(contentsOfFile: "/sys/fs/cgroup\(group)/cgroup.procs", encoding: .utf8)
        return text.split(separator: "\n").compactMap { Int32($0) }.sorted()
    }

    private static func mainPID() throws -> Int32 { Int32(try Units.property(Demo.unit, "MainPID")) ?? 0 }

    /// The parent of `pid` (field 4 of /proc/PID/stat).
    private static func parent(of pid: Int32) throws -> Int32 {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw CheckFailure("/proc/\(pid)/stat unreadable: \(stat)") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return Int32(fields[1]) ?? 0
    }

    /// Waits until the unit holds its main process, one standby (the main process's child) and that
    /// standby's template (its child: the next standby, forked before the standby read anything), and the
    /// standby has told permissiond it is there.
    @discardableResult
    private static func waitForStandby() throws -> (main: Int32, standby: Int32, template: Int32) {
        var found: (Int32, Int32, Int32) = (0, 0, 0)
        try waitUntil("\(Demo.unit) to hold its main process, a standby it started and that standby's template") {
            let main = try mainPID()
            let others = try processes().filter { $0 != main }
            let parents = others.map { ($0, (try? parent(of: $0)) ?? 0) }
            guard others.count == 2, let standby = parents.first(where: { $0.1 == main })?.0,
                let template = parents.first(where: { $0.1 == standby })?.0
            else { return (false, "main \(main), others (pid, parent) \(parents)") }
            found = (main, standby, template)
            return (true, "main \(main), standby \(standby), template \(template)")
        }
        // Ready once permissiond knows it: from then on a kill is asked of it first.
        try FaultJournal.waitFor("the standby \(found.1) to be ready", ["_PID": "\(found.1)"], field: "MESSAGE") {
            $0.message?.hasPrefix("standby ready") == true
        }
        return found
    }

    /// Waits until the unit's ActiveState is `state`.
    private static func waitForActiveState(_ state: String, _ when: String) throws {
        try waitUntil("\(Demo.unit) to be \(state) \(when)") {
            let now = try Units.property(Demo.unit, "ActiveState")
            return (now == state, "\(Demo.unit) is \(now), NRestarts=\(try Units.restarts(Demo.unit))")
        }
    }

    /// Waits until MainPID is no longer `old` and the app answers Ready() as finished.
    private static func waitForTakeOver(from old: Int32) throws -> Int32 {
        try waitUntil("\(Demo.unit)'s MainPID to change from \(old) and the app to be ready") {
            let main = try mainPID()
            guard main != old, main != 0 else { return (false, "MainPID \(main)") }
            let ready = try Demo.ready()
            return (ready.done, "MainPID \(main); \(ready.seen)")
        }
        return try mainPID()
    }

    /// A permission change with a standby: the process that read the old permission is SIGKILLed and
    /// gone, the standby (which had read nothing) takes over in the same unit, reads the new permission
    /// and restores the modal from the preserved archive; it is the unit's main process, its entries name
    /// the unit, and `systemctl status` shows it; no systemd restart took place, and a new standby waits.
    @Test func aPermissionKillIsTakenOverByTheStandby() throws {
        defer { Self.withoutStandby() }
        let (killed, standby, template) = try Self.withStandby()
        try Demo.openModal("standby")
        try Demo.call("Background")
        let before = try Permissiond.get(Permissiond.app, "camera")
        let after = Permissiond.other(than: before)
        let restarts = try Units.restarts(unit)
        let mark = try Journal.mark()
        let since = String(format: "@%.6f", Date().timeIntervalSince1970)

        try Command.expect(0, ["relaunchctl", "permission", "set", Permissiond.app, "camera", after], timeout: .seconds(60))
        let main = try Self.waitForTakeOver(from: killed)

        try Assert.equal("\(standby)", "\(main)", "the unit's main process after the kill (the standby was \(standby))")
        try Assert.equal("\(restarts)", "\(try Units.restarts(unit))", "NRestarts (a take-over is no systemd restart)")
        // The killed process is gone: the standby SIGKILLed it on permissiond's KillMainProcess (its
        // take-over entry says when), so systemd was not asked to.
        if kill(killed, 0) == 0 || errno != ESRCH { throw CheckFailure("the killed process \(killed) still exists") }
        let takeOver = try FaultJournal.waitFor("the take-over's 'main' entry", ["MESSAGE_ID": Self.tookOverID], after: mark,
                                                field: "TAKEOVER_PHASE") { $0["TAKEOVER_PHASE"] == "main" }
        if (takeOver["TAKEOVER_KILL_SENT_USEC"] ?? "").isEmpty {
            throw CheckFailure("the standby did not say it sent the SIGKILL: \(takeOver["MESSAGE"] ?? "")")
        }
        try journalSync()
        let systemdKills = try Journal.entries(["_PID": "1", "UNIT": unit], after: mark, timeout: .zero) { _ in true }
            .filter { $0.message?.contains("Sent signal SIGKILL to main process \(killed) ") == true }
        try Assert.equal("0", "\(systemdKills.count)", "systemd's SIGKILLs of \(killed) (the standby's was first)")
        // The new process read the permission after the change, and restored what was preserved.
        try Assert.equal(after, try Demo.state("camera"), "camera as the new process read it")
        try Demo.assertRestored("standby")
        // Its entries are the unit's, by journald's trusted fields: the take-over, then READY.
        for phase in ["main", "ready"] {
            let entry = try FaultJournal.waitFor("the take-over's '\(phase)' entry", ["MESSAGE_ID": Self.tookOverID], after: mark,
                                                 field: "TAKEOVER_PHASE") { $0["TAKEOVER_PHASE"] == phase }
            try Assert.equal(unit, entry["_SYSTEMD_UNIT"] ?? "", "_SYSTEMD_UNIT of the take-over's \(phase) entry")
            try Assert.equal("\(main)", entry["_PID"] ?? "", "_PID of the take-over's \(phase) entry")
            try Assert.equal("\(killed)", entry["TAKEN_OVER_PID"] ?? "", "TAKEN_OVER_PID of the \(phase) entry")
        }
        let status = try Command.run(["systemctl", "status", "--no-pager", "--lines=0", unit]).stdout
        try Assert.contains(status, "Main PID: \(main) (checkin-demo)", "systemctl status")
        // The timeline shows the take-over as the change's relaunch, phase by phase.
        try journalSync()
        let review = try JSON.parse(try Command.expect(
            0, ["relaunchctl", "journal", "--since", since, "--app", Permissiond.app, "--json"]).stdout)
        let incident = ((JSON.value(review, ["incidents"]) as? [[String: Any]]) ?? []).last { $0["permission"] as? String == "camera" }
        let kinds = ((incident?["events"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }
        try Assert.equal("permission-changed kill-sent process-exited took-over launched ready",
                         kinds.filter { ["permission-changed", "kill-sent", "process-exited", "took-over", "launched", "ready"].contains($0) }
                            .joined(separator: " "), "the take-over's incident in relaunchctl journal")
        // Nothing of the killed process is left in the unit: its new main process, the next standby (the
        // template the standby had forked) and that one's own template.
        let (now, next, nextTemplate) = try Self.waitForStandby()
        try Assert.equal("\(main)", "\(now)", "the main process with the next standby")
        try Assert.equal("\(template)", "\(next)", "the next standby (the template the standby forked)")
        try Assert.equal([main, next, nextTemplate].sorted().map(String.init).joined(separator: " "),
                         try Self.processes().map(String.init).joined(separator: " "), "the unit's processes")
    }

    /// A `KillMainProcess` from anyone but permissiond kills nothing: the standby believes the request
    /// only from the owner of permissiond's name (the bus daemon fills in the sender), and says so once.
    @Test func aStrangersKillRequestKillsNothing() throws {
        defer { Self.withoutStandby() }
        let (main, standby, _) = try Self.withStandby()
        let mark = try Journal.mark()
        try Command.expect(0, ["busctl", "emit", "/org/relaunch/Permissions1", "org.relaunch.Permissions1",
                               "KillMainProcess", "su", unit, "\(main)"])
        try FaultJournal.waitFor("the standby's word on the forged request", ["_PID": "\(standby)"], after: mark, field: "MESSAGE") {
            $0.message?.contains("ignored a KillMainProcess signal from") == true
        }
        if kill(main, 0) != 0 { throw CheckFailure("the main process \(main) is gone after a stranger's KillMainProcess") }
        try Assert.equal("\(main)", "\(try Self.mainPID())", "the unit's main process after a stranger's KillMainProcess")
    }

    /// The kill stays enforced when the standby does not act on permissiond's request (here it is
    /// stopped): permissiond has systemd SIGKILL the process after its bound, and the standby, once it
    /// runs again, takes over and reads the new permission.
    @Test func aStandbyThatDoesNotActLeavesTheKillToSystemd() throws {
        defer { Self.withoutStandby() }
        let (killed, standby, _) = try Self.withStandby()
        try Demo.call("Background")
        let after = Permissiond.other(than: try Permissiond.get(Permissiond.app, "camera"))
        let mark = try Journal.mark()
        try Command.expect(0, ["kill", "-STOP", "\(standby)"])
        var resumed = false
        defer { if !resumed { _ = kill(standby, SIGCONT) } }
        try Command.expect(0, ["relaunchctl", "permission", "set", Permissiond.app, "camera", after], timeout: .seconds(60))
        try FaultJournal.waitFor("systemd's SIGKILL of \(killed)", ["_PID": "1", "UNIT": unit], after: mark, field: "MESSAGE") {
            $0.message?.contains("Sent signal SIGKILL to main process \(killed) ") == true
        }
        try Command.expect(0, ["kill", "-CONT", "\(standby)"])
        resumed = true
        let main = try Self.waitForTakeOver(from: killed)
        try Assert.equal("\(standby)", "\(main)", "the unit's main process once the standby runs again")
        try Assert.equal(after, try Demo.state("camera"), "camera as the new process read it")
    }

    /// `relaunchctl permission set --wait` (RelaunchDriver's wait, as `TestedApp` waits) returns once
    /// the standby has taken over and restored: a relaunch is another main process too, and a take-over
    /// reports no exit → READY of its own (the unit's timestamps are those of its last start).
    @Test func aWaitingSetReturnsAfterATakeOver() throws {
        defer { Self.withoutStandby() }
        let (killed, standby, _) = try Self.withStandby()
        try Demo.call("Background")
        let after = Permissiond.other(than: try Permissiond.get(Permissiond.app, "camera"))
        let said = try Command.expect(0, ["relaunchctl", "permission", "set", "--wait", Permissiond.app, "camera", after],
                                      timeout: .seconds(60)).stdout
        try Assert.contains(said, "(app killed; its standby took over)", "relaunchctl permission set --wait")
        try Assert.contains(said, "relaunched: restored, instance", "relaunchctl permission set --wait")
        try Assert.equal("\(standby)", "\(try Self.mainPID())", "the main process after the wait (it was \(killed))")
        try Assert.equal(after, try Demo.state("camera"), "camera as the new process read it")
    }

    /// After a take-over the watchdog supervises the new main process: a hung app is aborted by it and
    /// restarted by systemd (a new invocation), not taken over.
    @Test func theWatchdogAbortsTheProcessThatTookOver() throws {
        defer { Self.withoutStandby() }
        let (killed, _, _) = try Self.withStandby()
        try Command.expect(0, ["systemctl", "kill", "--kill-who=main", "--signal=KILL", unit])
        let main = try Self.waitForTakeOver(from: killed)
        try Self.waitForStandby()
        let invocation = try Demo.invocation()
        let restarts = try Units.restarts(unit)
        // TestHook hang never answers: the call's own timeout ends it.
        _ = try Command.run(["busctl", "call", "--timeout=2"] + Bus.checkIn + ["TestHook", "s", "hang"])
        try Units.waitForRestarts(unit, restarts + 1)
        try Demo.waitReady()
        if try Demo.invocation() == invocation { throw CheckFailure("the watchdog's abort of \(main) did not start a new invocation") }
        try FaultJournal.waitFor("systemd's watchdog timeout", ["_PID": "1", "UNIT": unit], field: "MESSAGE") {
            $0.message?.contains("Watchdog timeout") == true
        }
    }

    /// A crash is never taken over: the standby leaves, systemd restarts the unit as it always did
    /// (counted against the start limit), and a crash loop ends in start-limit-hit.
    @Test func aCrashIsRestartedBySystemdAndACrashLoopEnds() throws {
        defer { Self.withoutStandby() }
        try Self.withStandby()
        try writeFile(Self.limitDropIn, "[Unit]\nStartLimitIntervalSec=60s\nStartLimitBurst=3\n")
        try Command.expect(0, ["systemctl", "daemon-reload"])
        // The burst counts starts from the reload on: three crashes restart, the fourth hits the limit.
        for crash in 1...4 {
            let (main, _, _) = try Self.waitForStandby()
            let invocation = try Demo.invocation()
            let restarts = try Units.restarts(unit)
            try Command.expect(0, ["systemctl", "kill", "--kill-who=main", "--signal=SEGV", unit])
            guard crash < 4 else { break }
            try Units.waitForRestarts(unit, restarts + 1)
            try Demo.waitReady()
            if try Demo.invocation() == invocation { throw CheckFailure("crash \(crash) of \(main) was not restarted by systemd") }
        }
        try Self.waitForActiveState("failed", "with start-limit-hit after four crashes")
    }

    /// A quit with a standby stops the unit: no take-over, no restart.
    @Test func aQuitStopsTheUnit() throws {
        defer { Self.withoutStandby() }
        try Self.withStandby()
        try Demo.call("Quit", "b", "false")
        try Self.waitForActiveState("inactive", "after a quit")
    }

    /// The drop-in keeps every app unit's exposure at 0.5 or less.
    @Test func theStandbyKeepsTheExposure() throws {
        defer { Self.withoutStandby() }
        try Self.withStandby()
        let line = try Command.expect(0, ["systemd-analyze", "security", "--no-pager", unit]).stdout
            .split(separator: "\n").last { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: " ").compactMap { Double($0) }.first ?? 99
        if score > 0.5 { throw CheckFailure("exposure of \(unit) with the standby: \(line)") }
    }
}
