import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd
import Testing

/// relaunchctl (the built binary, first on PATH in the sandbox) against the real daemon and app: exit
/// codes, one-line errors, and the timeline. (The toggle scenarios themselves run separately:
/// scripts/test plays scenarios/*.scenario.) Formerly tests/sandbox/checks/relaunchctl.sh, whose
/// post_relaunchctl_reads_the_exported_journal stays there: it reads the journal on the host after
/// the sandbox is down.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct RelaunchctlChecks {
    /// `relaunchctl ARGUMENTS` (as `user`), which must exit `status`; its result.
    @discardableResult
    private func relaunchctl(_ status: Int32, _ arguments: String..., as user: RunAs? = nil) throws -> CommandResult {
        try Command.expect(status, ["relaunchctl"] + arguments, as: user)
    }

    /// The app launched fresh (no saved state, every permission not-determined), whatever earlier
    /// checks left on screen or in permissiond.
    private func freshApp() throws {
        _ = try Command.run(["relaunchctl", "app", "quit", "--force"])
        try Command.expect(0, ["systemctl", "stop", Demo.unit])
        try relaunchctl(0, "permission", "reset", "checkin-demo")
        _ = try Command.run(["systemctl", "reset-failed", Demo.unit])
        try Command.expect(0, ["systemctl", "start", Demo.unit])
        try relaunchctl(0, "app", "wait-ready")
    }

    /// The check-in modal open with `note`, the app in the background.
    private func modalInTheBackground(_ note: String) throws {
        try relaunchctl(0, "app", "tap", "tab:check-in")
        try relaunchctl(0, "app", "tap", "check-in")
        try relaunchctl(0, "app", "type", "note", note)
        try relaunchctl(0, "app", "background")
    }

    /// Now, as `relaunchctl journal --since` takes it (`@SECONDS.FRACTION`).
    private func now() -> String { String(format: "@%.6f", Date().timeIntervalSince1970) }

    private func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    @Test func nonRootSetIsRefusedWith77() throws {
        let before = try relaunchctl(0, "permission", "get", "checkin-demo", "microphone").output
        let set = try relaunchctl(77, "permission", "set", "checkin-demo", "microphone", "denied", as: .nobody)
        try Assert.contains(set.output, "not authorized")
        let lines = set.output.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 1 else { throw CheckFailure("expected one line, got: \(set.output)") }
        try Assert.equal(before, try relaunchctl(0, "permission", "get", "checkin-demo", "microphone").output)
        try relaunchctl(77, "permission", "reset", "checkin-demo", as: .nobody)
        try relaunchctl(77, "app", "tap", "tab:venues", as: .nobody)
        // Reading is private too: 77, naming what would allow it.
        try Assert.contains(try relaunchctl(77, "permission", "list", "checkin-demo", as: .nobody).output, "org.relaunch.permissions.read")
        try Assert.contains(try relaunchctl(77, "app", "state", "--json", as: .nobody).output, "org.relaunch.app.drive")
    }

    @Test func badNamesExit2() throws {
        try Assert.contains(try relaunchctl(2, "permission", "set", "checkin-demo", "torch", "allowed").output,
                            "accepted: camera, microphone, photos, contacts, calendars, location")
        try Assert.contains(try relaunchctl(2, "permission", "set", "checkin-demo", "camera", "sometimes").output,
                            "accepted: allowed, denied, not-determined")
        try Assert.contains(try relaunchctl(2, "app", "tap", "teleport").output, "teleport")
        try relaunchctl(2, "app", "type", "party-size", "lots")
    }

    @Test func unreachableAppExits69() throws {
        // The app runs again however this check ends.
        defer { _ = try? Command.run(["systemctl", "start", Demo.unit]) }
        try Command.expect(0, ["systemctl", "stop", Demo.unit])
        try Assert.contains(try relaunchctl(69, "app", "screen").output, "checkin-demo")
        // A stopped app never becomes ready: the short bound is not a race, whatever the speed.
        try relaunchctl(69, "app", "wait-ready", "--timeout", "0.5")
        try Command.expect(0, ["systemctl", "start", Demo.unit])
        try relaunchctl(0, "app", "wait-ready")
    }

    @Test func setKillsAndTheTimelineShowsTheRelaunch() throws {
        try freshApp()
        try modalInTheBackground("timeline check")
        let since = now()
        try Assert.contains(try relaunchctl(0, "permission", "set", "checkin-demo", "contacts", "allowed").output, "app killed")
        try relaunchctl(0, "app", "wait-ready")
        try journalSync()
        let timeline = try json(try relaunchctl(0, "journal", "--since", since, "--json").stdout)
        try Assert.equal("1", timeline.value(at: "summary.kills").jqText, ".summary.kills")
        try Assert.equal("1", timeline.value(at: "summary.restores").jqText, ".summary.restores")
        let events = timeline.value(at: "incidents.0.events")?.elements ?? []
        try Assert.equal("permission-changed,kill-sent,process-exited",
                         events.prefix(3).map { $0.value(at: "kind").jqText }.joined(separator: ","),
                         "the first three events' kinds of the first incident")
        let modal = events.first {
            $0.value(at: "kind")?.string == "controller-restored"
                && $0.value(at: "fields.RESTORATION_PATH")?.string?.hasSuffix("CheckInModalNavigationController") == true
        }
        try Assert.equal("appDelegate", modal?.value(at: "fields.RESTORED_VIA").jqText ?? "null", "RESTORED_VIA of the modal's navigation controller")
        let text = try relaunchctl(0, "journal", "--since", since).output
        try Assert.contains(text, "summary: 1 incident, 1 kill, 1 restore")
        try Assert.contains(text, "via appDelegate")
    }

    /// A permission change while the relaunched app is still restoring (it holds the restoring mark)
    /// kills that instance too; the next launch must see that permissiond killed it, not that it
    /// crashed, and restore the modal instead of discarding it as crashed-during-restore.
    @Test func killDuringRestoreIsNotACrash() throws {
        // Whatever happens, leave no stalled instance or armed hook to the checks after this one.
        defer {
            try? FileManager.default.removeItem(atPath: "/var/lib/checkin-demo/stall-next-restore")
            _ = try? Command.run(["systemctl", "restart", Demo.unit])
        }
        try freshApp()
        try modalInTheBackground("kept through two kills")
        try Command.expect(0, Bus.call(Bus.checkIn, "TestHook", "s", "stall-next-restore"))
        let mark = try Journal.mark()
        try relaunchctl(0, "permission", "set", "checkin-demo", "camera", "allowed")
        // The relaunched instance stalls right after setting the mark; wait for its line in the journal.
        _ = try Journal.entries(["_SYSTEMD_UNIT": Demo.unit], after: mark, timeout: .seconds(60)) {
            $0.contains { $0.message?.contains("stalling while restoring") == true }
        }
        try Assert.contains(try relaunchctl(0, "permission", "set", "checkin-demo", "camera", "denied").output, "app killed")
        try relaunchctl(0, "app", "wait-ready")
        let state = try json(try relaunchctl(0, "app", "state", "--json").stdout)
        try Assert.equal("restored", state.value(at: "launch.outcome").jqText, "launch.outcome")
        try Assert.equal("kept through two kills", state.value(at: "modal.note").jqText, "modal.note")
        try journalSync()
        let discards = try Journal.entries(["MESSAGE_ID": Demo.discardedID], after: mark, timeout: .zero) { _ in true }
        try Assert.equal("0", String(discards.count), "discards since the first Set")
        // The restore came back because the mark was forgiven, not because no mark was left: the
        // stalled instance was the one killed, and the next launch says so.
        let forgiven = "the last restore was killed for a permission change, not crashed; restoring again"
        let said = try Journal.entries(["_SYSTEMD_UNIT": Demo.unit], after: mark) { _ in true }
        try Assert.equal("1", String(said.filter { $0.message?.contains(forgiven) == true }.count), "lines '\(forgiven)'")
    }

    /// The app answers Quit before it exits; linger-on-quit makes it stay 2 s after answering, so the
    /// race with a start that follows at once always happens. quit must wait for the exit: a start on
    /// a unit that is still active does nothing, and the app would then exit with nobody to start it.
    @Test func quitReturnsOnceTheAppIsGone() throws {
        defer { _ = try? Command.run(["systemctl", "start", Demo.unit]) }
        try Demo.waitReady()
        try Demo.call("TestHook", "s", "linger-on-quit")
        try relaunchctl(0, "app", "--app", "checkin-demo", "quit", "--force")
        try Assert.equal("inactive", try Units.property(Demo.unit, "ActiveState"), "the unit as soon as quit returned")
        try Command.expect(0, ["systemctl", "start", Demo.unit])
        try Demo.waitReady()
        try Assert.equal("fresh", try Demo.state("launch.outcome"), "the launch after a force quit")
    }
}
