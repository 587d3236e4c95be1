import Foundation
import RelaunchTestSupport
import Systemd
import Testing

/// Any systemd service can be a Relaunch app: notes-py (tests/apps/notes-py), a few lines of Python,
/// registered at run time through /run/relaunch/apps.d. A revoke kills it and systemd relaunches it
/// with the new state; a grant (its registration says KillPolicy=android) reaches it as Changed; the
/// timeline shows the incident under its app id. (Formerly tests/sandbox/checks/anyapp.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct AnyAppChecks {
    static let app = "notes-py"
    static let unit = "notes-py.service"
    static let folder = "/run/relaunch-apps/notes-py"
    /// tests/apps/notes-py of this checkout (the sandbox sees the repository at the same path).
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tests/apps/notes-py").path

    /// The app's files where a host would have them (/run, as an operator testing an app would), then
    /// systemd and permissiond told; returns once permissiond serves the app.
    private func install() throws {
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        try Command.expect(0, ["install", "-m", "0755", "\(Self.sources)/notes-py", "\(Self.folder)/notes-py"])
        let unitFile = try String(contentsOfFile: "\(Self.sources)/notes-py.service", encoding: .utf8)
        try writeFile("/run/systemd/system/\(Self.unit)", unitFile.replacingOccurrences(of: "@APP_DIR@", with: Self.folder))
        try FileManager.default.createDirectory(atPath: "/run/relaunch/apps.d", withIntermediateDirectories: true)
        try Command.expect(0, ["install", "-m", "0644", "\(Self.sources)/notes-py.conf", "/run/relaunch/apps.d/\(Self.app).conf"])
        try Command.expect(0, ["systemctl", "daemon-reload"])
        try Command.expect(0, ["systemctl", "reload", "permissiond.service"])
        try waitUntil("permissiond to serve \(Self.app)") {
            let listed = try Command.run(Bus.call(Bus.permissions, "ListApps")).stdout
            return (listed.contains("\"\(Self.app)\""), listed)
        }
    }

    private func remove() {
        _ = try? Command.run(["systemctl", "stop", Self.unit])
        for path in [Self.folder, "/run/systemd/system/\(Self.unit)", "/run/relaunch/apps.d/\(Self.app).conf"] {
            try? FileManager.default.removeItem(atPath: path)
        }
        _ = try? Command.run(["systemctl", "daemon-reload"])
        _ = try? Command.run(["systemctl", "reload", "permissiond.service"])
    }

    /// Waits for the instance `invocation` to print `text` (its stdout goes to the journal).
    private func waitForLine(_ invocation: String, _ text: String) throws {
        _ = try Journal.entries(["_SYSTEMD_INVOCATION_ID": invocation], timeout: .seconds(60)) {
            $0.contains { $0.message?.contains(text) == true }
        }
    }

    @Test func aPythonAppIsKilledRelaunchedAndFollowsChanges() throws {
        let modules = try Command.run(["/usr/bin/python3", "-c", "import dbus, gi"])
        guard modules.status == 0 else {
            throw CheckFailure("python3-dbus and python3-gi are needed (apt-get install -y python3-dbus python3-gi): \(modules)")
        }
        defer { remove() }
        try install()
        try Command.expect(0, ["relaunchctl", "permission", "set", Self.app, "microphone", "denied"])
        try Command.expect(0, ["systemctl", "restart", Self.unit])
        let first = try Units.property(Self.unit, "InvocationID")
        try waitForLine(first, "launched: microphone is denied")
        let since = String(format: "@%.6f", Date().timeIntervalSince1970)

        // A grant under its android policy: no kill, the running instance follows Changed.
        try Command.expect(0, ["relaunchctl", "permission", "set", Self.app, "microphone", "allowed"])
        try waitForLine(first, "microphone changed from denied to allowed")
        try Assert.equal(first, try Units.property(Self.unit, "InvocationID"), "the instance after a grant")

        // A revoke kills it; systemd relaunches it; the new instance reads the new state.
        let revoke = try Command.expect(0, ["relaunchctl", "permission", "set", Self.app, "microphone", "denied"])
        try Assert.contains(revoke.output, "app killed", "relaunchctl's answer to the revoke")
        try waitUntil("a new InvocationID of \(Self.unit)") {
            let now = try Units.property(Self.unit, "InvocationID")
            return (now != first && !now.isEmpty, "InvocationID \(now) (first \(first))")
        }
        let second = try Units.property(Self.unit, "InvocationID")
        try waitForLine(second, "launched: microphone is denied")

        // The timeline has the incident under its app id, with the kill and the relaunch.
        let timeline = try Command.expect(0, ["relaunchctl", "journal", "--since", since, "--app", Self.app]).output
        try Assert.contains(timeline, "\(Self.app)  microphone allowed → denied", "the timeline")
        try Assert.contains(timeline, "SIGKILL to \(Self.unit)", "the timeline")
        try Assert.contains(timeline, "Started \(Self.unit)", "the timeline")
        // --app keeps to one app: checkin-demo changed nothing meanwhile.
        try Assert.contains(
            try Command.run(["relaunchctl", "journal", "--since", since, "--app", "checkin-demo"]).output,
            "no permission changes in the journal for checkin-demo", "the timeline of another app")
    }
}
