import Foundation
import RelaunchTestSupport
import Systemd
import Testing

/// permissiond and the app under faults: a daemon SIGKILLed between commit and kill (the outbox), a
/// hung bus loop (the watchdog), the app started while permissiond is down (D-Bus activation), a
/// change that does not kill (the app follows Changed), dbus-daemon restarted and systemd re-executed
/// (reconnects). Each checks an invariant: the app's camera equals the store's, and a kill hit the
/// instance that owed it. (Formerly tests/sandbox/checks/faults.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct FaultChecks {
    private let app = Permissiond.app
    private let unit = Demo.unit

    /// permissiond commits, then SIGKILLs itself instead of killing the app (TestHook die-before-kill):
    /// the caller gets no reply; systemd restarts permissiond, which finds the pending kill and kills
    /// exactly the instance that owed it, once.
    @Test func outboxKillsAfterPermissiondDiedBetweenCommitAndKill() throws {
        try Demo.waitReady()
        let state = Permissiond.other(than: try Permissiond.get(app, "camera"))
        let before = try Demo.invocation()
        let daemonBefore = try Units.property("permissiond.service", "InvocationID")
        try Permissiond.call("TestHook", "s", "die-before-kill")
        try Command.expect(1, ["busctl", "call", "--timeout=10"] + Bus.permissions + ["Set", "sss", app, "camera", state])
        try Units.waitForChange("permissiond.service", "InvocationID", from: daemonBefore)
        try Units.waitForChange(unit, "InvocationID", from: before)
        try Demo.waitReady()
        try Assert.equal(state, try Permissiond.get(app, "camera"), "stored camera after the daemon died")
        try Assert.equal(before, try Permissiond.lastKilledInvocation(app), "LastKill names the instance that owed the kill")
        let killed = try Journal.entries(["MESSAGE_ID": Permissiond.killedID, "KILLED_INVOCATION_ID": before])
        try Assert.equal("1", String(killed.count), "kill entries for the instance \(before)")
        try Assert.equal(state, try Demo.state("camera"), "camera of the relaunched app")
    }

    /// The hook blocks permissiond's bus thread, which pings the watchdog (WatchdogSec=10s): systemd
    /// aborts it with UNIT_RESULT=watchdog and restarts it, and the new one answers.
    @Test func permissiondWatchdogAbortsAHungBusLoop() throws {
        let restarts = try Units.restarts("permissiond.service")
        let before = try Units.property("permissiond.service", "InvocationID")
        // A permissiond still hung when the check ends (no watchdog fired) is killed, so the next check
        // finds it serving.
        defer {
            Cleanup.undo("the hung permissiond") {
                guard try Units.property("permissiond.service", "InvocationID") == before else { return }
                try Command.expect(0, ["systemctl", "kill", "--signal=KILL", "permissiond.service"])
                try Units.waitForChange("permissiond.service", "InvocationID", from: before)
                try Units.waitActive("permissiond.service")
            }
        }
        // The caller stays connected (permissiond looks up its uid before the hook runs); its call
        // ends with an error once permissiond is gone.
        let hang = try Background(["busctl", "call"] + Bus.permissions + ["TestHook", "s", "hang"])
        defer { hang.end() }
        try waitUntil("permissiond.service NRestarts above \(restarts)") {
            let now = try Units.restarts("permissiond.service")
            return (now > restarts, "permissiond.service NRestarts=\(now)")
        }
        try Units.waitActive("permissiond.service")
        let result = try FaultJournal.waitFor(
            "UNIT_RESULT of the hung permissiond (invocation \(before))", ["UNIT": "permissiond.service", "INVOCATION_ID": before],
            field: "UNIT_RESULT"
        ) { $0["UNIT_RESULT"] != nil }
        let results = try Journal.entries(["UNIT": "permissiond.service", "INVOCATION_ID": before]).compactMap { $0["UNIT_RESULT"] }
        try Assert.equal("watchdog", results.last ?? result["UNIT_RESULT"] ?? "", "UNIT_RESULT of the hung permissiond")
        _ = try Permissiond.get(app, "camera")
    }

    /// Both down, then only the app started: its Get activates permissiond over D-Bus and waits for it,
    /// and the app learns the stored camera.
    @Test func appStartedWhilePermissiondIsDownLearnsTheStoredPermission() throws {
        try Demo.waitReady()
        let state = Permissiond.other(than: try Permissiond.get(app, "camera"))
        Permissiond.setCameraAnyway(state)
        try Demo.waitReady()
        defer { Cleanup.undo("the stopped units") { try Command.expect(0, ["systemctl", "start", "permissiond.service", unit]) } }
        try Command.expect(0, ["systemctl", "stop", unit, "permissiond.service"])
        try Command.expect(0, ["systemctl", "start", unit])
        try Demo.waitReady()
        try Demo.waitForCamera(state)
        let daemon = try Command.run(["systemctl", "is-active", "permissiond.service"]).line
        try Assert.equal("active", daemon, "permissiond.service after the app's call (D-Bus activation)")
    }

    /// The app and permissiond SIGKILLed together: both come back and the app ends with the stored camera.
    @Test func appKilledTogetherWithPermissiondEndsWithTheStoredPermission() throws {
        try Demo.waitReady()
        let state = Permissiond.other(than: try Permissiond.get(app, "camera"))
        Permissiond.setCameraAnyway(state)
        try Demo.waitReady()
        try Command.expect(0, ["systemctl", "kill", "--signal=KILL", unit, "permissiond.service"])
        try Units.waitActive("permissiond.service")
        try Demo.waitReady()
        try Demo.waitForCamera(state)
    }

    /// A grant under the android policy kills nothing: the app learns it from Changed, in place. The
    /// policy goes back to the default however the check ends.
    @Test func appFollowsAChangeThatDoesNotKill() throws {
        try Demo.waitReady()
        Permissiond.setCameraAnyway("denied")
        defer { Cleanup.undo("the android kill policy") { try Permissiond.setPolicy(nil) } }
        try Permissiond.setPolicy("android")
        try Demo.waitReady()
        let before = try Demo.invocation()
        try Command.expect(0, ["relaunchctl", "permission", "set", app, "camera", "allowed"])
        try Demo.waitForCamera("allowed")
        try Assert.equal(before, try Demo.invocation(), "the app was not relaunched")
    }

    /// dbus-daemon restarted: permissiond reconnects (the same process) and a change still kills.
    @Test func killsAfterDbusDaemonRestart() throws {
        try Demo.waitReady()
        let daemon = try Units.property("permissiond.service", "MainPID")
        try Command.expect(0, ["systemctl", "restart", "dbus.service"])
        try Demo.waitReady()
        try expectKillingSet()
        try Assert.equal(daemon, try Units.property("permissiond.service", "MainPID"), "permissiond reconnected instead of restarting")
    }

    /// systemd re-executed: a change still kills.
    @Test func killsAfterSystemdReexec() throws {
        try Demo.waitReady()
        try Command.expect(0, ["systemctl", "daemon-reexec"])
        try Demo.waitReady()
        try expectKillingSet()
    }

    /// A camera change kills the running instance and the relaunched app knows it.
    private func expectKillingSet() throws {
        let before = try Demo.invocation()
        let state = Permissiond.other(than: try Permissiond.get(app, "camera"))
        try Command.expect(0, ["relaunchctl", "permission", "set", app, "camera", state])
        try Units.waitForChange(unit, "InvocationID", from: before)
        try Demo.waitReady()
        try Assert.equal(state, try Demo.state("camera"), "camera of the relaunched app")
    }
}
