import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd
import Testing

/// Faults of the services permissiond and the apps lean on: permissiond's database on a full disk (a
/// Set fails cleanly with one line and exit 1, the store keeps its previous state, nothing is
/// half-written, the app is not killed for a change that was not stored, and Sets work again once
/// there is space), and journald stopped or frozen while apps log (they keep running and relaunching;
/// every wait is bounded). Every mount and stopped or frozen service is brought back by a `defer`,
/// also when the check fails. (Formerly tests/sandbox/checks/faults-services.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct ServiceFaultChecks {
    private let app = Permissiond.app
    private let unit = Demo.unit
    private static let databaseFolder = "/var/lib/permissiond"
    private static let save = "/run/relaunch-check-permissiond"
    private static let filler = ".relaunch-check-filler"
    private static let journald = ["systemd-journald.socket", "systemd-journald-dev-log.socket", "systemd-journald.service"]

    /// SQL on permissiond's database (read only): what sqlite3 prints.
    private func sql(_ query: String) throws -> String {
        try Command.expect(0, ["sqlite3", "-readonly", "\(Self.databaseFolder)/permissions.db", query]).line
    }

    /// Frees the space, moves the database from the small tmpfs back to the directory below it,
    /// unmounts it and starts permissiond again. Leaves a directory that is not mounted as it is.
    private static func diskBack() {
        try? FileManager.default.removeItem(atPath: "\(databaseFolder)/\(filler)")
        Cleanup.undo("stopping permissiond") { try Command.expect(0, ["systemctl", "stop", "permissiond.service"]) }
        if (try? Command.run(["mountpoint", "-q", databaseFolder]).status) == 0 {
            Cleanup.undo("the database's move back below the tmpfs") {
                try Command.expect(0, ["rm", "-rf", save])
                try Command.expect(0, ["cp", "-a", databaseFolder, save])
                try Command.expect(0, ["umount", databaseFolder])
                try Command.expect(0, ["find", databaseFolder, "-mindepth", "1", "-delete"])
                try Command.expect(0, ["cp", "-a", "\(save)/.", "\(databaseFolder)/"])
                try Command.expect(0, ["rm", "-rf", save])
            }
        }
        Cleanup.undo("starting permissiond") {
            try Command.expect(0, ["systemctl", "start", "permissiond.service"])
            try Units.waitActive("permissiond.service")
        }
    }

    @Test func permissiondDatabaseOnAFullDiskRefusesASetCleanly() throws {
        let folder = Self.databaseFolder
        try Demo.waitReady()
        defer { Self.diskBack() }
        // The database moves onto a tmpfs of its size plus 2 MiB, mounted while permissiond is stopped.
        try Command.expect(0, ["systemctl", "stop", "permissiond.service"])
        let used = try Command.expect(0, ["du", "-sk", folder]).stdout.split(separator: "\t").first.flatMap { Int($0) }
        guard let used else { throw CheckFailure("du -sk \(folder) said no size") }
        try Command.expect(0, ["rm", "-rf", Self.save])
        try Command.expect(0, ["cp", "-a", folder, Self.save])
        try Command.expect(0, ["mount", "-t", "tmpfs", "-o", "size=\(used + 2048)k,mode=0700", "relaunch-check-pd-full", folder])
        try Command.expect(0, ["cp", "-a", "\(Self.save)/.", "\(folder)/"])
        try Command.expect(0, ["rm", "-rf", Self.save])
        try Command.expect(0, ["systemctl", "start", "permissiond.service"])
        try Units.waitActive("permissiond.service")

        let before = try Permissiond.get(app, "camera")
        let new = Permissiond.other(than: before)
        let lastKill = try Permissiond.lastKill(app)
        let invocation = try Demo.invocation()
        let daemon = try Units.property("permissiond.service", "MainPID")
        let history = try sql("SELECT count(*) FROM permission_history")
        try fill(folder, name: Self.filler)
        try Assert.equal("0", try freeKiB(folder), "free space in \(folder)")

        // The Set fails: exit 1, one line that says so.
        let refused = try Command.expect(1, ["relaunchctl", "permission", "set", app, "camera", new], timeout: .seconds(60))
        print("note: a Set on a full disk: \(refused.output)")
        let lines = refused.output.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false)
        try Assert.equal("1", String(lines.count), "lines of relaunchctl's error")
        // Nothing changed: the store, its history, the last kill, the app's instance, permissiond itself.
        try Assert.equal(before, try Permissiond.get(app, "camera"), "camera after the failed Set")
        try Assert.equal(lastKill, try Permissiond.lastKill(app), "LastKill after the failed Set")
        try Assert.equal(invocation, try Demo.invocation(), "the app's instance (no kill for an unstored change)")
        try Assert.equal(daemon, try Units.property("permissiond.service", "MainPID"), "permissiond's MainPID (it did not die)")
        try Assert.equal(history, try sql("SELECT count(*) FROM permission_history"), "history rows")
        try Assert.equal(before, try sql("""
            SELECT coalesce((SELECT state FROM permission_state WHERE app = '\(app)' AND permission = 'camera'), 'not-determined')
            """), "camera in the database file")
        try Assert.equal("ok", try sql("PRAGMA integrity_check"), "integrity of the database")
        try Assert.equal("0", try sql("SELECT count(*) FROM pending_kill"), "kills owed")

        // Space back: the same Set is stored and kills the app once.
        try FileManager.default.removeItem(atPath: "\(folder)/\(Self.filler)")
        try Command.expect(0, ["relaunchctl", "permission", "set", app, "camera", new], timeout: .seconds(60))
        try Units.waitForChange(unit, "InvocationID", from: invocation)
        try Demo.waitReady()
        try Assert.equal(new, try Permissiond.get(app, "camera"), "camera once there was space")
        try Assert.equal(new, try Demo.state("camera"), "camera of the relaunched app")
        try Assert.equal(String((Int(history) ?? -1) + 1), try sql("SELECT count(*) FROM permission_history"), "history rows after the Set")
    }

    /// journald and its sockets are all stopped; what their states were.
    private func journaldDown() throws -> (done: Bool, seen: String) {
        let states = try Command.run(["systemctl", "is-active"] + Self.journald).stdout
            .split(separator: "\n").joined(separator: " ")
        return (states == "inactive inactive inactive", "journald service, socket, dev-log socket: \(states)")
    }

    /// "unit=MainPID" of every registered app but checkin-demo.
    private func otherAppPIDs() throws -> [String] {
        let list = try JSON.parse(try Command.expect(0, ["relaunchctl", "app", "list", "--json"]).stdout) as? [Any] ?? []
        return try list.compactMap { JSON.value($0, ["unit"]) as? String }.filter { $0 != unit }
            .map { "\($0)=\(try Units.property($0, "MainPID"))" }
    }

    /// The default journald only: permissiond's and the apps' namespace sockets cannot be stopped under
    /// them, as their units require those sockets (the frozen check below stops every journald
    /// reading). Input, preservation, kills and relaunches, each of which logs, with no journald to
    /// take it; the apps that were not killed still run, as the same processes; journald back, the
    /// app's next entry reaches it.
    @Test func journaldStoppedAppsKeepRunningAndRelaunching() throws {
        let note = "no journald \(getpid())"
        try Demo.restartFresh()
        let pids = try otherAppPIDs()
        defer { Cleanup.undo("journald's start") { try Command.expect(0, ["systemctl", "start"] + Self.journald) } }
        try Command.expect(0, ["systemctl", "stop"] + Self.journald)
        try waitUntil("journald and its sockets to be stopped") { try journaldDown() }
        try Demo.openModal(note)
        for round in 1...3 {
            let state = Permissiond.other(than: try Permissiond.get(app, "camera"))
            let before = try Demo.invocation()
            try Demo.call("Background")
            try Command.expect(0, ["relaunchctl", "permission", "set", app, "camera", state], timeout: .seconds(60))
            try Units.waitForChange(unit, "InvocationID", from: before)
            try Demo.waitReady()
            try Demo.assertRestored(note)
            try Assert.equal(state, try Demo.state("camera"), "camera of the app relaunched in round \(round)")
        }
        let down = try journaldDown()
        guard down.done else { throw CheckFailure("journald came back while the apps logged (socket activation?): \(down.seen)") }
        try Assert.equal(pids.joined(separator: "\n"), try otherAppPIDs().joined(separator: "\n"), "the other apps' MainPIDs")
        try Command.expect(0, ["systemctl", "start"] + Self.journald)
        let invocation = try Demo.invocation()
        try Demo.call("Background")
        try Demo.waitForEntry(invocation, MessageID.statePreserved.rawValue, "'state preserved' with ARCHIVE_COPIES=file,fdstore once journald was back",
                                  field: "ARCHIVE_COPIES") { $0["ARCHIVE_COPIES"] == "file,fdstore" }
        try Demo.call("Foreground")
    }

    /// journald stops reading (SIGSTOP; its sockets stay), every journald: the default one (PID 1's
    /// entries) and each namespace's (permissiond's, the apps'). A sender that waited for it would wait
    /// forever: the app answers 60 calls, each round logging two lifecycle entries and a preservation
    /// (far more than journald's socket queues), without a watchdog abort, and a kill and relaunch
    /// restore it. Reading again, journald gets the app's next entry, after one saying how many were
    /// dropped.
    @Test func journaldFrozenAppsKeepAnsweringAndRelaunching() throws {
        let note = "journald frozen \(getpid())"
        try Demo.restartFresh()
        try Demo.openModal(note)
        let invocation = try Demo.invocation()
        let restarts = try Units.restarts(unit)
        let namespace = try Units.property(unit, "LogNamespace")
        let journald = namespace.isEmpty ? "systemd-journald.service" : "systemd-journald@\(namespace).service"
        let thaw = ["systemctl", "kill", "--signal=CONT", "systemd-journald*.service"]
        defer { Cleanup.undo("thawing journald") { try Command.expect(0, thaw) } }
        try Command.expect(0, ["systemctl", "kill", "--signal=STOP", "systemd-journald*.service"])
        let pid = try Units.property(journald, "MainPID")
        let state = try Command.expect(0, ["ps", "-o", "state=", "-p", pid]).line.prefix(1)
        try Assert.equal("T", String(state), "the state of \(journald), the app's journald (stopped)")
        for _ in 1...30 {
            try Demo.call("Background")
            try Demo.call("Foreground")
        }
        try Assert.equal(invocation, try Demo.invocation(), "the app's instance after 60 calls (no watchdog abort)")
        try Assert.equal(String(restarts), String(try Units.restarts(unit)), "NRestarts after 60 calls")
        // A kill and relaunch with journald still frozen: the launch logs too.
        try Demo.call("Background")
        let instances = try Demo.killAndWait("KILL")
        try Demo.assertRestored(note)
        try Command.expect(0, thaw)
        try Demo.call("Background")
        try Demo.waitForWarning(instances.new, "log entries while journald was not reading them")
        try Demo.call("Foreground")
    }
}
