import Foundation
import RelaunchTestSupport
import Testing

/// What calling systemd's KillUnit takes (systemd 252), and that permissiond.service has exactly that:
/// permissiond runs as relaunch-permissiond without capabilities; systemd asks polkit
/// (org.freedesktop.systemd1.manage-units, details unit= and verb=), and the rule that
/// `relaunch-app-unit --polkit-rules` writes from the registrations (at permissiond's start and reload)
/// allows that user the verb kill on the units of registered apps, and nothing else.
/// SIGCONT (18) is the probe: authorized or not, it does the running app no harm.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct KillUnitChecks {
    @Test func killUnitAllowedForPermissiondOnAppUnits() throws {
        try expectLike(0, UnitFile.permissiond, KillProbe.killUnit())
    }

    /// relaunch-app-unit, which writes polkit's list of the units permissiond may kill, with permissiond's
    /// parser: the last Unit= of a file counts; a file in /etc/relaunch/apps.d hides one of the same name
    /// in /run/relaunch/apps.d; a file permissiond skips (an unknown key) counts for nothing; [app NAME]
    /// sections of permissiond.conf count, unless apps.d registers the same app (its unit wins); anything
    /// else does not. Probe units that do not exist, in files that are removed again (and
    /// permissiond.conf put back) whatever happens.
    @Test func appUnitReadsRegistrationsAsPermissiondDoes() throws {
        let tool = "/usr/local/lib/relaunch/relaunch-app-unit"
        let conf = "/etc/relaunch/permissiond.conf"
        let saved = "/run/relaunch-probe-conf"
        let files = FileManager.default
        try files.createDirectory(atPath: "/run/relaunch/apps.d", withIntermediateDirectories: true)
        try files.createDirectory(atPath: "/etc/relaunch/apps.d", withIntermediateDirectories: true)
        if files.fileExists(atPath: conf) { try Command.expect(0, ["cp", "-p", conf, saved]) }
        defer {
            for probe in ["/run/relaunch/apps.d/zz-probe.conf", "/etc/relaunch/apps.d/zz-probe.conf", "/etc/relaunch/apps.d/zz-probe-bad.conf"] {
                try? files.removeItem(atPath: probe)
            }
            if files.fileExists(atPath: saved) { _ = try? Command.run(["mv", saved, conf]) } else { try? files.removeItem(atPath: conf) }
        }
        func says(_ status: Int32, _ unit: String, _ why: String) throws {
            let got = try Command.run([tool, unit])
            guard got.status == status else {
                throw CheckFailure("relaunch-app-unit \(unit) exited \(got.status), expected \(status) (\(why)); it said: \(got.output)")
            }
        }
        func append(_ text: String, to path: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        }
        try "[App]\nUnit=zz-probe-a.service\nUnit = zz-probe-b.service \nPermissions=camera\n"
            .write(toFile: "/run/relaunch/apps.d/zz-probe.conf", atomically: false, encoding: .utf8)
        try says(1, "zz-probe-a.service", "a later Unit= replaces it")
        try says(0, "zz-probe-b.service", "the last Unit= of a file in /run/relaunch/apps.d")
        try "[App]\nUnit=zz-probe-c.service\nPermissions=camera\n".write(toFile: "/etc/relaunch/apps.d/zz-probe.conf", atomically: false, encoding: .utf8)
        try says(1, "zz-probe-b.service", "hidden by the file of the same name in /etc/relaunch/apps.d")
        try says(0, "zz-probe-c.service", "registered in /etc/relaunch/apps.d")
        if !files.fileExists(atPath: conf) { _ = files.createFile(atPath: conf, contents: nil) }
        try append("\n[app zz-probe-d]\nunit = zz-probe-d.service # a comment\n", to: conf)
        try says(0, "zz-probe-d.service", "an [app NAME] section of permissiond.conf")
        try append("\n[app zz-probe]\nunit = zz-probe-f.service\n", to: conf)
        try says(1, "zz-probe-f.service", "a section of an app that apps.d registers with another unit")
        try "[App]\nUnit=zz-probe-g.service\nColour=blue\n".write(toFile: "/etc/relaunch/apps.d/zz-probe-bad.conf", atomically: false, encoding: .utf8)
        try says(1, "zz-probe-g.service", "a file permissiond skips (unknown key Colour)")
        try says(0, "checkin-demo.service", "a seed app")
        try says(1, "zz-probe-e.service", "registered nowhere")
        try says(2, "", "no unit named")
    }

    /// polkit decides permissiond's kills from a list of the registered apps' units, written by
    /// relaunch-app-unit --polkit-rules (root) when permissiond starts or reloads; polkitd rereads its
    /// rules by itself. So: no rule starts a process; an app registered later can be killed once
    /// permissiond is reloaded, without restarting polkit, and not before; one removed cannot be, after
    /// the reload; a hostile registration is inert. Probe units that sleep; files removed again.
    @Test func killUnitFollowsRegistrationsWithoutAProcessPerKill() throws {
        let folder = "/etc/polkit-1/rules.d"
        let rules = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".rules") }.sorted()
            .map { try String(contentsOfFile: "\(folder)/\($0)", encoding: .utf8) }.joined()
        #expect(!rules.contains("polkit.spawn"), "polkit's rules (a process per kill) contain 'polkit.spawn': \(rules)")
        #expect(rules.contains("\"checkin-demo.service\""), "polkit's rules lack the list of the registered apps' units: \(rules)")
        defer { KillProbe.remove() }
        try KillProbe.start("zz-kill-probe.service")
        try KillProbe.start("zz-kill-other.service")
        if let allowed = try KillProbe.notRefused("zz-kill-probe.service") { throw CheckFailure("an unregistered unit was killable: \(allowed)") }

        // Registered in /run/relaunch/apps.d, beside hostile files: a unit name with backslashes (valid for
        // systemd and the parser: in a JavaScript string written as it is, '\x2d' would become '-' and name
        // zz-kill-other.service), one with a quote that would end the string and add a rule that says yes
        // to everything (the parser skips the file).
        let pidBefore = try Units.property("zz-kill-probe.service", "MainPID")
        try KillProbe.file("zz-kill-probe.conf", "[App]", "Unit=zz-kill-probe.service", "Permissions=camera")
        try KillProbe.file("zz-kill-slash.conf", "[App]", #"Unit=zz\x2dkill\x2dother.service"#)
        try KillProbe.file("zz-kill-quote.conf", "[App]", #"Unit=a.service"]; polkit.addRule(function() { return polkit.Result.YES; }); //"#)
        try Command.expect(0, ["systemctl", "reload", "permissiond.service"])
        try waitUntil("permissiond's user may kill zz-kill-probe.service", timeout: .seconds(30)) {
            let kill = try runLike(UnitFile.permissiond, KillProbe.killUnit("zz-kill-probe.service"))
            return (kill.status == 0, "KillUnit exited \(kill.status): \(kill.output)")
        }
        if let allowed = try KillProbe.notRefused("zz-kill-other.service") {
            throw CheckFailure(#"a registration of 'zz\x2dkill\x2dother.service' let permissiond kill zz-kill-other.service: "# + allowed)
        }
        if let allowed = try KillProbe.notRefused("polkit.service") {
            throw CheckFailure("after a registration with a quote, permissiond may kill polkit.service: \(allowed)")
        }
        try expectLike(0, UnitFile.permissiond, KillProbe.killUnit("checkin-demo.service"))
        let written = try String(contentsOfFile: "\(folder)/50-relaunch-app-units.rules", encoding: .utf8)
        #expect(written.contains(#"zz\u005cx2dkill\u005cx2dother.service"#),
                "the backslashes of a registered unit name are not escaped in 50-relaunch-app-units.rules: \(written)")

        // A permission change of the new app kills its unit (SIGKILL: the sleep ends, the unit fails).
        let set = try Command.expect(0, ["relaunchctl", "permission", "set", "zz-kill-probe", "camera", "denied"])
        #expect(set.output.contains("app killed"), "relaunchctl's answer to a change of the newly registered app: \(set)")
        try waitUntil("zz-kill-probe.service to stop", timeout: .seconds(30)) {
            let state = try Command.run(["systemctl", "is-active", "zz-kill-probe.service"])
            return (state.status != 0, "zz-kill-probe.service is \(state.line)")
        }
        let pidAfter = try Units.property("zz-kill-probe.service", "MainPID")
        #expect(pidAfter != pidBefore, "zz-kill-probe.service still runs pid \(pidBefore)")

        // Unregistered and reloaded: refused again.
        try FileManager.default.removeItem(atPath: "/run/relaunch/apps.d/zz-kill-probe.conf")
        try Command.expect(0, ["systemctl", "reload", "permissiond.service"])
        try KillProbe.start("zz-kill-probe.service")
        try waitUntil("permissiond's user to be refused zz-kill-probe.service again", timeout: .seconds(30)) {
            let allowed = try KillProbe.notRefused("zz-kill-probe.service")
            return (allowed == nil, allowed ?? "")
        }
    }

    @Test func killUnitRefusedForPermissiondOnOtherUnits() throws {
        let kill = try expectLike(1, UnitFile.permissiond, KillProbe.killUnit("polkit.service"))
        try KillProbe.assertRefused(kill, "KillUnit of polkit.service by permissiond's user", askPolkit: true)
    }

    @Test func permissiondMayNotRestartOrStopApps() throws {
        let restart = try expectLike(1, UnitFile.permissiond, KillProbe.manager + ["RestartUnit", "ss", "checkin-demo.service", "replace"])
        try KillProbe.assertRefused(restart, "RestartUnit by permissiond's user", askPolkit: true)
    }

    /// permissiond resets the start-limit counter its own kills filled (a permission kill is not a crash).
    @Test func resetFailedAllowedForPermissiondOnAppUnitsOnly() throws {
        try expectLike(0, UnitFile.permissiond, KillProbe.manager + ["ResetFailedUnit", "s", "checkin-demo.service"])
        let other = try expectLike(1, UnitFile.permissiond, KillProbe.manager + ["ResetFailedUnit", "s", "polkit.service"])
        try KillProbe.assertRefused(other, "ResetFailedUnit of polkit.service by permissiond's user")
    }

    @Test func killUnitRefusedForNonRootEvenWithCapKill() throws {
        let kill = try Command.expect(1, [
            "systemd-run", "--pipe", "--wait", "--quiet", "-p", "DefaultDependencies=no", "-p", "User=relaunch-checkin",
            "-p", "AmbientCapabilities=CAP_KILL",
        ] + KillProbe.killUnit())
        try KillProbe.assertRefused(kill, "KillUnit by a non-root user with CAP_KILL")
    }

    /// A Swift program (Foundation) under checkin-demo.service's sandboxing, MemoryDenyWriteExecute and
    /// the system call filter included, when a Swift toolchain is installed.
    @Test func appRunsWithItsUnitSandboxing() throws {
        let found = try Command.run(["sh", "-c", "command -v plutil"]).line
        guard !found.isEmpty else {
            note("no plutil (Swift toolchain) on PATH: skipped the Swift run")
            return
        }
        let plutil = URL(fileURLWithPath: found).resolvingSymlinksInPath().path
        try expectLike(0, UnitFile.checkInDemo, [plutil, "-help"])
    }
}

/// KillUnit and its kin called as permissiond's user, and the probe units and registrations they try.
enum KillProbe {
    static let manager = ["busctl", "call", "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager"]
    static let files = ["zz-kill-probe.conf", "zz-kill-slash.conf", "zz-kill-quote.conf"].map { "/run/relaunch/apps.d/\($0)" }
    static let units = ["zz-kill-probe.service", "zz-kill-other.service"]

    /// KillUnit(UNIT, main, SIGCONT).
    static func killUnit(_ unit: String = "checkin-demo.service") -> [String] { manager + ["KillUnit", "ssi", unit, "main", "18"] }

    /// nil when KillUnit(UNIT) as permissiond's user is refused (Access denied); what it did otherwise.
    static func notRefused(_ unit: String) throws -> String? {
        let kill = try runLike(UnitFile.permissiond, killUnit(unit))
        let refused = kill.status != 0
            && (kill.output.contains("Access denied") || kill.output.contains("Interactive authentication required"))
        return refused ? nil : "KillUnit of \(unit) exited \(kill.status): \(kill.output)"
    }

    /// systemd's refusal says "Access denied", or, where polkit would let an administrator
    /// authenticate, "Interactive authentication required": refused either way. systemd says "Access
    /// denied" too when polkit is not there to ask, so with `askPolkit` the refusal counts only with
    /// polkit up and answering permissiond's user itself: pkcheck, run as that user, must get polkit's
    /// "not authorized" for the action (exit 1, or 2: only after authentication), not fail to reach it
    /// (127). (Only trusted callers may pass details such as unit=, so this asks about the action as a whole.)
    static func assertRefused(_ result: CommandResult, _ what: String, askPolkit: Bool = false) throws {
        guard result.output.contains("Access denied") || result.output.contains("Interactive authentication required") else {
            throw CheckFailure("\(what) was not refused as expected; it said: \(result.output)")
        }
        try polkitAnswers(timeout: .seconds(60))
        guard askPolkit else { return }
        // systemd-run turns $$$$ into $$ (its own $ expansion), which sh turns into pkcheck's own PID.
        let check = try runLike(UnitFile.permissiond, ["sh", "-c", "exec pkcheck --action-id org.freedesktop.systemd1.manage-units --process $$$$"])
        guard check.status == 1 || check.status == 2 else {
            throw CheckFailure("\(what): polkit itself did not answer 'not authorized' to pkcheck as permissiond's user (exit \(check.status)): \(check.output)")
        }
    }

    /// /run/relaunch/apps.d/NAME holds the LINEs, as they are.
    static func file(_ name: String, _ lines: String...) throws {
        try FileManager.default.createDirectory(atPath: "/run/relaunch/apps.d", withIntermediateDirectories: true)
        try lines.map { $0 + "\n" }.joined().write(toFile: "/run/relaunch/apps.d/\(name)", atomically: false, encoding: .utf8)
    }

    /// UNIT as a transient service that sleeps, active.
    static func start(_ unit: String) throws {
        _ = try Command.run(["systemctl", "reset-failed", unit])
        try Command.expect(0, ["systemd-run", "--quiet", "--unit=\(unit)", "-p", "DefaultDependencies=no", "sleep", "600"])
        try Units.waitActive(unit, timeout: .seconds(30))
    }

    /// The probe files and units gone, permissiond reloaded.
    static func remove() {
        for file in files { try? FileManager.default.removeItem(atPath: file) }
        _ = try? Command.run(["systemctl", "stop"] + units)
        _ = try? Command.run(["systemctl", "reset-failed"] + units)
        _ = try? Command.run(["systemctl", "reload", "permissiond.service"])
    }
}
