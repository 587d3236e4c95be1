import Foundation
import RelaunchTestSupport
import Systemd
import Testing

/// permissiond over the system bus: Permissions1's reads, who may write, argument errors, and the
/// daemon's own start and stop. The kills, the policies and the Changed signal are in
/// PermissiondKillChecks; durability under SIGKILL in PermissiondDurabilityChecks.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct PermissiondChecks {
    /// A never-set permission reads not-determined; List has every permission; ListApps has the
    /// configured app; LastKill of an app never killed is empty. Reads are private
    /// (the security checks try them all): not for uid 65534.
    @Test func reads() throws {
        let app = Permissiond.freshApp("pd-never-set")
        try Permissiond.register(app)
        defer { try? Permissiond.unregister(app) }
        let state = try Permissiond.get(app, "camera")
        try #require(state == "not-determined", "Get of a never-set permission")
        let list = try Permissiond.call("List", "s", app)
        // Every permission, notifications included.
        try #require(list.contains("a{ss} 7 "), "List has 7 permissions: \(list)")
        for permission in ["camera", "microphone", "photos", "contacts", "calendars", "location"] {
            try #require(list.contains("\"\(permission)\" \"not-determined\""), "List: \(list)")
        }
        let apps = try Permissiond.call("ListApps")
        try #require(apps.contains("\"\(Permissiond.app)\""), "ListApps (configured apps): \(apps)")
        let kill = try Permissiond.lastKill(app)
        try #require(kill == "(sssst) \"\" \"\" \"\" \"\" 0", "LastKill of an app never killed")
        let get = try Command.expect(1, Bus.send(Bus.permissions, "Get", "string:\(Permissiond.app)", "string:camera"), as: .nobody)
        try #require(get.output.contains("org.relaunch.permissions.read"), "Get by uid 65534: \(get)")
        let lastKill = try Command.expect(1, Bus.send(Bus.permissions, "LastKill", "string:\(Permissiond.app)"), as: .nobody)
        try #require(lastKill.output.contains("org.relaunch.permissions.read"), "LastKill by uid 65534: \(lastKill)")
    }

    /// Set and Reset by uid 65534 are refused by permissiond after asking polkit, and change nothing.
    /// The bus policy is the first fence; opened for a moment (a policy file in the sandbox's
    /// throwaway /etc), the call reaches permissiond, which must refuse by the caller's uid itself.
    @Test func refusesNonRootWriters() throws {
        let before = try Permissiond.get(Permissiond.app, "calendars")
        let mark = try Journal.mark()
        func setByNobody() throws -> CommandResult {
            try Command.expect(1, Bus.send(Bus.permissions, "Set", "string:\(Permissiond.app)", "string:calendars",
                                           "string:\(Permissiond.other(than: before))"), as: .nobody)
        }
        func resetByNobody() throws -> CommandResult {
            try Command.expect(1, Bus.send(Bus.permissions, "Reset", "string:\(Permissiond.app)", "string:"), as: .nobody)
        }
        let refused = try setByNobody()
        try #require(refused.output.contains(Permissiond.accessDenied), "Set by uid 65534: \(refused)")
        try Refusal.byService(refused, "Set by uid 65534")
        try Refusal.byService(try resetByNobody(), "Reset by uid 65534")
        let down = try polkitIsDown()
        try #require(down == nil, "polkit is not up after the refusals: \(down ?? "")")
        let after = try Permissiond.get(Permissiond.app, "calendars")
        try #require(after == before, "calendars after refused writes")

        let policy = "/etc/dbus-1/system.d/zz-relaunch-check-open-permissions.conf"
        let reload = ["busctl", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig"]
        defer {
            try? FileManager.default.removeItem(atPath: policy)
            _ = try? Command.run(reload)
        }
        try """
            <busconfig>
              <policy context="default">
                <allow send_destination="\(Bus.permissions[0])" send_interface="\(Bus.permissions[2])"/>
              </policy>
            </busconfig>

            """.write(toFile: policy, atomically: true, encoding: .utf8)
        try Command.expect(0, reload)
        let openSet = try setByNobody()
        try #require(openSet.output.contains(Permissiond.accessDenied), "Set by uid 65534 (policy open): \(openSet)")
        try #require(openSet.output.contains("uid 65534"), "permissiond's own refusal names the caller: \(openSet)")
        let openReset = try resetByNobody()
        try #require(openReset.output.contains(Permissiond.accessDenied), "Reset by uid 65534 (policy open): \(openReset)")
        try FileManager.default.removeItem(atPath: policy)
        try Command.expect(0, reload)

        let last = try Permissiond.get(Permissiond.app, "calendars")
        try #require(last == before, "calendars after refused writes")
        let changes = try Permissiond.entries(Permissiond.changedID, after: mark, ["APP_ID": Permissiond.app, "PERMISSION": "calendars"])
        guard changes.isEmpty else {
            throw CheckFailure("a refused write was logged as a change: \(changes.map { $0.message ?? "" })")
        }
    }

    /// Unknown permissions and states and malformed app ids are InvalidArgs naming what is accepted;
    /// wrong argument types never reach the daemon's logic (sd-bus checks the signature).
    @Test func rejectsBadArguments() throws {
        let app = "string:\(Permissiond.app)"
        func refused(_ what: String, _ argv: [String], saying phrase: String? = nil) throws {
            let result = try Command.expect(1, argv)
            try #require(result.output.contains(Permissiond.invalidArgs), "\(what): \(result)")
            if let phrase { try #require(result.output.contains(phrase), "\(what)'s message: \(result)") }
        }
        try refused("Set with an unknown permission", Bus.send(Bus.permissions, "Set", app, "string:bluetooth", "string:allowed"),
                    saying: "camera, microphone, photos, contacts, calendars, location")
        try refused("Set with an unknown state", Bus.send(Bus.permissions, "Set", app, "string:camera", "string:maybe"),
                    saying: "not-determined, denied, allowed")
        try refused("Get with a malformed app id", Bus.send(Bus.permissions, "Get", "string:No Such App!", "string:camera"),
                    saying: "[a-z0-9]")
        try refused("Reset with an unknown permission", Bus.send(Bus.permissions, "Reset", app, "string:bluetooth"))
        // busctl shows the same message.
        let busctl = try Command.expect(1, Bus.call(Bus.permissions, "Get", "ss", Permissiond.app, "bluetooth"))
        try #require(busctl.output.contains("accepted: camera, microphone"), "busctl Get with an unknown permission: \(busctl)")
        try Command.expect(1, Bus.call(Bus.permissions, "Get", "s", Permissiond.app))
    }

    /// SIGTERM stops permissiond cleanly (Result=success, status 0); bad settings are one line on
    /// stderr and exit 1, before the bus is touched.
    @Test func stopsCleanlyAndRefusesBadSettings() throws {
        try Permissiond.daemonReady()
        try Command.expect(0, ["systemctl", "stop", Permissiond.daemon])
        var started = false
        defer { if !started { _ = try? Command.run(["systemctl", "start", Permissiond.daemon]) } }
        let result = try Units.property(Permissiond.daemon, "Result")
        try #require(result == "success", "permissiond's Result after SIGTERM")
        let status = try Units.property(Permissiond.daemon, "ExecMainStatus")
        try #require(status == "0", "permissiond's exit status after SIGTERM")
        try Command.expect(0, ["systemctl", "start", Permissiond.daemon])
        started = true
        try Permissiond.daemonReady()

        let folder = try TemporaryDirectory(prefix: "pd-settings")
        let dir = folder.path
        try "kill-policy = sometimes\n".write(toFile: "\(dir)/bad.conf", atomically: true, encoding: .utf8)
        let bad = try Command.expect(1, ["permissiond", "--config", "\(dir)/bad.conf", "--database", "\(dir)/p.db"])
        try #require(bad.output.contains("\(dir)/bad.conf:1:"), "bad configuration: \(bad)")
        try #require(lineCount(bad.output) == 1, "lines printed for a bad configuration: \(bad)")
        let policy = try Command.expect(1, ["env", "RELAUNCH_KILL_POLICY=sometimes", "permissiond", "--database", "\(dir)/p.db"])
        try #require(policy.output.contains("RELAUNCH_KILL_POLICY='sometimes' is not a kill policy; accepted: ios, android"), "\(policy)")
        let database = try Command.expect(1, ["permissiond", "--database", "\(dir)/no/such/dir/p.db"])
        try #require(database.output.contains("cannot open permission database \(dir)/no/such/dir/p.db"), "\(database)")
        let example = try Command.expect(0, ["permissiond", "--print-example-config"])
        try #require(example.output.contains("kill-policy = ios"), "\(example)")
    }
}

/// The lines of `text` as bash's `wc -l <<<"$(...)"` counts them: trailing newlines dropped, then one
/// line per remaining newline plus one.
func lineCount(_ text: String) -> Int {
    text.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).count
}
