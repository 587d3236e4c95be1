import RelaunchTestSupport
import Systemd
import Testing

/// permissiond's kill: a change SIGKILLs the app's unit through systemd (journal entries, systemd's
/// relaunch, LastKill), a no-op Set changes nothing, both kill policies, and the Changed signal. The
/// app under test is checkin-demo.service (the real app or the C stand-in).
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct PermissiondKillChecks {
    /// A camera change is committed before Set is answered, kills the running instance (permissiond's
    /// entry naming it, systemd's exit with status 9), systemd relaunches the app, and the change is
    /// logged with its caller, old and new state and KILL=true.
    @Test func setKillsTheRunningApp() throws {
        try Permissiond.daemonReady()
        try Permissiond.appReady()
        let old = try Permissiond.get(Permissiond.app, "camera")
        let new = Permissiond.other(than: old)
        let restarts = try Units.restarts(Permissiond.unit)
        let invocation = try Units.property(Permissiond.unit, "InvocationID")
        let mark = try Journal.mark()
        try Permissiond.call("Set", "sss", Permissiond.app, "camera", new)
        // Committed before it was answered.
        let now = try Permissiond.get(Permissiond.app, "camera")
        try #require(now == new, "Get right after Set")
        try Permissiond.expectKill(after: mark, "camera", restarts: restarts, invocation: invocation)
        try Permissiond.expectEntry(
            Permissiond.changedID, after: mark,
            [
                "APP_ID": Permissiond.app, "PERMISSION": "camera", "OLD_STATE": old, "NEW_STATE": new,
                "CALLER_UID": "0", "KILL": "true", "SYSLOG_IDENTIFIER": "permissiond",
            ], "the change of camera from \(old) to \(new) with KILL=true")
        let kill = try Permissiond.lastKill()
        try #require(kill.contains("\"\(old)\" \"\(new)\""), "LastKill has the old and new state: \(kill)")
    }

    /// A Set to the state a permission already has neither kills nor logs a change.
    @Test func setSameStateChangesNothing() throws {
        try Permissiond.appReady()
        let state = try Permissiond.get(Permissiond.app, "photos")
        let kill = try Permissiond.lastKill()
        let mark = try Journal.mark()
        try Permissiond.call("Set", "sss", Permissiond.app, "photos", state)
        let after = try Permissiond.lastKill()
        try #require(after == kill, "LastKill after a no-op Set")
        try Permissiond.journalBarrier(after: mark)
        let changes = try Permissiond.entries(Permissiond.changedID, after: mark, ["APP_ID": Permissiond.app, "PERMISSION": "photos"])
        guard changes.isEmpty else { throw CheckFailure("a no-op Set was logged: \(changes.map { $0.message ?? "" })") }
    }

    /// Under the ios policy a location change does not kill the app.
    @Test func locationDoesNotKillUnderIos() throws {
        try Permissiond.appReady()
        let new = Permissiond.other(than: try Permissiond.get(Permissiond.app, "location"))
        let kill = try Permissiond.lastKill()
        let mark = try Journal.mark()
        try Permissiond.call("Set", "sss", Permissiond.app, "location", new)
        try Permissiond.expectNoKill(after: mark, "location", new: new, lastKill: kill)
    }

    /// Under the android policy only a revoke kills: contacts goes denied (that Set may kill), then a
    /// grant (no kill), then a revoke (a kill). With the drop-in gone permissiond is back at ios.
    @Test func androidPolicyKillsOnlyOnRevoke() throws {
        var restored = false
        defer { if !restored { try? Permissiond.setPolicy(nil) } }
        try Permissiond.setPolicy("android")
        try Permissiond.appReady()
        try Permissiond.setSettled(Permissiond.app, "contacts", "denied")
        let kill = try Permissiond.lastKill()
        var mark = try Journal.mark()
        try Permissiond.call("Set", "sss", Permissiond.app, "contacts", "allowed")
        try Permissiond.expectNoKill(after: mark, "contacts", new: "allowed", lastKill: kill)
        let restarts = try Units.restarts(Permissiond.unit)
        let invocation = try Units.property(Permissiond.unit, "InvocationID")
        mark = try Journal.mark()
        try Permissiond.call("Set", "sss", Permissiond.app, "contacts", "denied")
        try Permissiond.expectKill(after: mark, "contacts", restarts: restarts, invocation: invocation)
        restored = true
        try Permissiond.setPolicy(nil)
        let said = try Command.expect(
            0, ["journalctl", "--namespace=*", "-u", Permissiond.daemon, "-o", "cat", "-n", "20", "--no-pager"]).stdout
        try #require(said.contains("kill policy ios"), "permissiond's policy once the drop-in is gone: \(said)")
    }

    /// Set, Set and Reset of a test app each emit Changed (app, permission, old, new, killed=false);
    /// the configured app's signal says it was killed.
    @Test func emitsChanged() throws {
        let app = Permissiond.freshApp("pd-signal")
        try Permissiond.register(app)
        defer { try? Permissiond.unregister(app) }
        let signals = try ChangedSignals()
        try Permissiond.call("Set", "sss", app, "camera", "denied")
        try Permissiond.call("Set", "sss", app, "camera", "allowed")
        try Permissiond.call("Reset", "ss", app, "")
        for (old, new) in [("not-determined", "denied"), ("denied", "allowed"), ("allowed", "not-determined")] {
            try signals.wait(for: "[\(app), camera, \(old), \(new), false]") {
                $0.app == app && $0.permission == "camera" && $0.old == old && $0.new == new && !$0.killed
            }
        }
        try Permissiond.appReady()
        let new = Permissiond.other(than: try Permissiond.get(Permissiond.app, "photos"))
        try Permissiond.setSettled(Permissiond.app, "photos", new)
        try signals.wait(for: "[\(Permissiond.app), photos, *, \(new), true]") {
            $0.app == Permissiond.app && $0.permission == "photos" && $0.new == new && $0.killed
        }
        try Permissiond.appReady()
    }
}
