import Foundation
import RelaunchTestSupport
import Systemd
import Testing

/// The trust boundary, tried as a local attacker would (docs/SECURITY.md): uid 65534 with no groups
/// reads nothing private, forges no signal an app believes, and stalls nobody; a burst of permission
/// changes never leaves an app in a crash loop. Each check performs the attack and asserts it fails.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct SecurityChecks {
    @Test func strangerReadsNoPermissions() throws {
        try Demo.waitReady()
        try polkitAnswers()
        try Permissiond.call("Set", "sss", "checkin-demo", "camera", "allowed")
        try Demo.waitReady()
        for method in [
            ["Get", "string:checkin-demo", "string:camera"], ["List", "string:checkin-demo"],
            ["LastKill", "string:checkin-demo"], ["List", "string:banca-demo"],
        ] {
            let said = try Command.expect(1, Bus.send(Bus.permissions, method[0], Array(method.dropFirst())), as: .nobody)
            try Stranger.assertDenied(said, "\(method.joined(separator: " ")) by uid 65534", action: "org.relaunch.permissions.read")
        }
        let get = try Command.expect(77, ["relaunchctl", "permission", "get", "checkin-demo", "camera"], as: .nobody)
        #expect(get.output.contains("org.relaunch.permissions.read"), "relaunchctl permission get by uid 65534: \(get)")
        try Command.expect(77, ["relaunchctl", "permission", "list", "checkin-demo"], as: .nobody)
        // Which apps are registered is no secret (apps.d is world-readable): ListApps stays open.
        let list = try Command.expect(0, Bus.call(Bus.permissions, "ListApps"), as: .nobody)
        #expect(list.output.contains("\"checkin-demo\""), "ListApps by uid 65534: \(list)")
        // Root and a member of the group relaunch (polkit's org.relaunch.permissions.read) read any app.
        let byRoot = try Command.expect(0, ["relaunchctl", "permission", "get", "checkin-demo", "camera"])
        #expect(byRoot.output.trimmingCharacters(in: .newlines) == "allowed", "Get by root: expected 'allowed', got '\(byRoot.output)'")
        let byMember = try Stranger.asMember(0, ["relaunchctl", "permission", "get", "checkin-demo", "camera"])
        #expect(byMember.output.trimmingCharacters(in: .newlines) == "allowed", "Get by a member of relaunch: expected 'allowed', got '\(byMember.output)'")
        try Stranger.asMember(0, ["relaunchctl", "permission", "list", "banca-demo"])
    }

    /// The app reads its own permissions at launch (as the app, not root), and a process in an app's
    /// registered unit reads that app's permissions and no other app's.
    @Test func appReadsOnlyItsOwnPermissions() throws {
        try Demo.waitReady()
        try polkitAnswers()
        try Permissiond.call("Set", "sss", "checkin-demo", "camera", "denied")
        try waitUntil("checkin-demo's state to show camera denied", timeout: .seconds(120)) {
            AttackedApp.stateIs("permissions.camera", "denied")
        }
        try Demo.waitReady()
        let unit = "relaunch-probe.service"
        try FileManager.default.createDirectory(atPath: "/run/relaunch/apps.d", withIntermediateDirectories: true)
        try "[App]\nUnit=\(unit)\nPermissions=camera\n".write(toFile: "/run/relaunch/apps.d/probe.conf", atomically: true, encoding: .utf8)
        defer {
            try? Permissiond.unregister("probe")
            _ = try? Command.run(["systemctl", "reset-failed", unit])
        }
        try Command.expect(0, ["systemctl", "reload", "permissiond.service"])
        try waitUntil("permissiond to serve probe", timeout: .seconds(120)) {
            let listed = try Command.run(Bus.call(Bus.permissions, "ListApps")).stdout
            return (listed.contains("\"probe\""), listed)
        }
        let inProbe = ["systemd-run", "--unit=\(unit)", "--pipe", "--wait", "--quiet", "-p", "DefaultDependencies=no", "-p", "User=relaunch-banca"]
        let own = try Command.expect(0, inProbe + Bus.call(Bus.permissions, "Get", "ss", "probe", "camera"))
        #expect(own.output.trimmingCharacters(in: .newlines) == "s \"not-determined\"", "the probe app reading its own camera: expected '\"not-determined\"', got '\(own.output)'")
        let other = try Command.expect(1, inProbe + Bus.send(Bus.permissions, "Get", "string:checkin-demo", "string:camera"))
        try Stranger.assertDenied(other, "the probe app reading checkin-demo", action: "org.relaunch.permissions.read")
    }

    @Test func strangerReadsNoAppScreenOrState() throws {
        try Demo.restartFresh()
        defer { try? Demo.restartFresh() }
        try polkitAnswers()
        let secret = "my secret note \(ProcessInfo.processInfo.processIdentifier)"
        try Demo.openModal(secret)
        for method in ["State", "Screen", "Elements"] {
            let said = try Command.expect(1, Bus.send(Bus.checkIn, method), as: .nobody)
            try Stranger.assertDenied(said, "\(method) by uid 65534", action: "org.relaunch.app.drive")
            #expect(!said.output.contains("my secret note"), "\(method) by uid 65534 shows the note: \(said)")
        }
        let state = try Command.expect(77, ["relaunchctl", "app", "state", "--json"], as: .nobody)
        #expect(!state.output.contains("my secret note"), "relaunchctl app state by uid 65534 shows the note: \(state)")
        try Command.expect(0, Bus.call(Bus.checkIn, "Ready"), as: .nobody)
        let byMember = try Stranger.asMember(0, ["relaunchctl", "app", "state", "--json"])
        #expect(byMember.output.contains(secret), "relaunchctl app state by a member of relaunch lacks '\(secret)': \(byMember)")
    }

    /// countries-demo follows location live (a location change does not kill under the ios policy), so
    /// a Changed it believed would show in its state at once. Forged Changed signals, broadcast and sent
    /// to the app's connection alone (which no match rule filters), change nothing; permissiond's own
    /// Changed still counts.
    @Test func forgedChangedSignalChangesNothing() throws {
        let unit = "countries-demo.service"
        let bus = "org.relaunch.CountriesDemo1"
        try Command.expect(0, ["systemctl", "start", unit])
        try Permissiond.call("Reset", "ss", "countries-demo", "location")
        defer { _ = try? Permissiond.call("Reset", "ss", "countries-demo", "location") }
        try waitUntil("countries-demo's location to be not-determined", timeout: .seconds(120)) {
            AttackedApp.stateIs("permissions.location", "not-determined", bus: bus)
        }
        let invocation = try Units.property(unit, "InvocationID")
        let mark = try Journal.mark()
        let changed = ["/org/relaunch/Permissions1", "org.relaunch.Permissions1", "Changed", "ssssb",
                       "countries-demo", "location", "not-determined", "allowed", "false"]
        try Command.expect(0, ["busctl", "emit"] + changed, as: .nobody)
        try Command.expect(0, ["busctl", "emit", "--destination=\(bus)"] + changed, as: .nobody)
        // The app says so once per sender (each busctl is a sender of its own): both reached it.
        _ = try Journal.entries(["_SYSTEMD_INVOCATION_ID": invocation], after: mark, timeout: .seconds(120)) { entries in
            entries.count(where: { ($0.message ?? "").lowercased().contains("ignored a changed signal") }) >= 2
        }
        let seen = try AttackedApp.state("permissions.location", bus: bus)
        #expect(seen == "not-determined", "the app's location after forged Changed signals: expected 'not-determined', got '\(seen)'")
        let stored = try Command.expect(0, ["relaunchctl", "permission", "get", "countries-demo", "location"]).line
        #expect(stored == "not-determined", "the store's location: expected 'not-determined', got '\(stored)'")
        // permissiond's own Changed still counts: the same change, made for real, shows at once.
        try Permissiond.call("Set", "sss", "countries-demo", "location", "allowed")
        try waitUntil("countries-demo's location to be allowed", timeout: .seconds(120)) {
            AttackedApp.stateIs("permissions.location", "allowed", bus: bus)
        }
        let now = try Units.property(unit, "InvocationID")
        #expect(now == invocation, "countries-demo's instance (location does not kill): expected \(invocation), got \(now)")
    }

    /// The stranger's side of an unanswered prompt: on a terminal of its own (script), a polkit agent for
    /// this very process (pkttyagent closes fd 5 once polkit registered it), then the interactive Set;
    /// exec keeps the pid the agent is for. The agent shows the prompt, and its answer never comes; the
    /// terminal's input is a FIFO that nobody writes. Meanwhile everyone else is served.
    @Test func unansweredPromptStallsNobody() throws {
        try Demo.waitReady()
        try polkitAnswers()
        let dir = "/run/relaunch-sec-prompt"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try """
            #!/bin/sh
            registered=$(pkttyagent --process $$ --notify-fd 5 5>&1 >/dev/null 2>&1 &)
            echo "agent registered"
            exec busctl --allow-interactive-authorization=yes --timeout=90 call org.relaunch.Permissions1 \\
                /org/relaunch/Permissions1 org.relaunch.Permissions1 Set sss checkin-demo microphone allowed

            """.write(toFile: "\(dir)/stranger", atomically: true, encoding: .utf8)
        try """
            #!/bin/sh
            exec 3<>\(dir)/input
            setpriv --reuid=65534 --regid=65534 --clear-groups script -qec \(dir)/stranger /dev/null <&3 >\(dir)/out 2>&1
            echo "exit $?" >>\(dir)/out

            """.write(toFile: "\(dir)/launch", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(dir)/stranger")
        try Command.expect(0, ["mkfifo", "-m", "0600", "\(dir)/input"])
        // Its own service: whatever the check does, stopping it ends script, pkttyagent and busctl.
        let stranger = try BackgroundService("relaunch-check-prompt", ["sh", "\(dir)/launch"], output: "\(dir)/launch.log", bound: .seconds(300))
        defer {
            stranger.stop()
            try? FileManager.default.removeItem(atPath: dir)
            _ = try? Permissiond.call("Reset", "ss", "checkin-demo", "camera")
            try? Demo.waitReady()
        }
        let out = { (try? String(contentsOfFile: "\(dir)/out", encoding: .utf8)) ?? "" }
        // The terminal ends its lines with \r\n, one Character: split on every kind of newline.
        let ended = { out().split(whereSeparator: \.isNewline).contains { $0.hasPrefix("exit") } }
        // polkit asked the agent: the prompt is on the stranger's terminal.
        try waitUntil("the stranger's prompt", timeout: .seconds(120)) {
            (out().contains("AUTHENTICATING FOR org.relaunch.permissions.set"), "\(out()) \(stranger.said)")
        }
        // Root's changes and the kills they make, reads, polkit for others. The first change is answered
        // while the prompt is still open (it ends only at its 25 s bound; one Set takes a fraction of a
        // second even on a loaded machine).
        for i in 1...4 {
            let state = i % 2 == 1 ? "allowed" : "denied"
            try Command.expect(0, ["busctl", "--timeout=15", "call"] + Bus.permissions + ["Set", "sss", "checkin-demo", "camera", state],
                               timeout: .seconds(20))
            if i == 1, ended() {
                throw CheckFailure("the stranger's call ended before another caller's Set was answered: \(out())")
            }
            try Demo.waitReady()
        }
        let get = try Command.expect(0, ["busctl", "--timeout=15", "call"] + Bus.permissions + ["Get", "ss", "checkin-demo", "camera"],
                                     timeout: .seconds(20))
        #expect(get.output.contains("\"denied\""), "Get while a prompt is unanswered: \(get)")
        let other = try Command.expect(1, Bus.send(Bus.permissions, "Get", "string:checkin-demo", "string:camera"), as: .nobody,
                                       timeout: .seconds(20))
        #expect(other.output.contains("org.relaunch.permissions.read"), "another stranger's Get while a prompt is unanswered: \(other)")
        // The stranger's call ends by itself (at polkit's bound for a prompt), refused, having changed nothing.
        try waitUntil("the stranger's call to end", timeout: .seconds(120)) { (ended(), out()) }
        let said = out()
        #expect(said.contains("Access denied"), "the stranger's Set was not refused: \(said)")
        #expect(said.contains("exit 1"), "the stranger's Set did not exit 1: \(said)")
        let microphone = try Command.expect(0, ["relaunchctl", "permission", "get", "checkin-demo", "microphone"]).line
        #expect(microphone == "not-determined", "microphone after the refused Set: expected 'not-determined', got '\(microphone)'")
        let permissiond = try Units.property("permissiond.service", "ActiveState")
        #expect(permissiond == "active", "permissiond (no watchdog abort): expected 'active', got '\(permissiond)'")
    }

    /// 60 changes of the camera 80 ms apart, as a user flipping the switch would make them (one
    /// process makes them all, so the pace is the switch's): the app comes back restored, its unit
    /// never hits the start limit, and each killing change killed a distinct instance once.
    @Test func toggleBurstNeverCrashLoops() throws {
        try Demo.restartFresh()
        defer { try? Demo.restartFresh() }
        let typed = "through the burst \(ProcessInfo.processInfo.processIdentifier)"
        try Demo.openModal(typed)
        try Demo.call("Background")
        let changes = 60
        let mark = try Journal.mark()
        try Command.expect(0, ["sh", "-c", """
            for i in $(seq 1 \(changes)); do
                if [ $((i % 2)) -eq 1 ]; then state=allowed; else state=denied; fi
                busctl call \(Bus.permissions.joined(separator: " ")) Set sss checkin-demo camera $state >/dev/null ||
                    { echo "Set $i of \(changes) ($state) failed"; exit 1; }
                sleep 0.08
            done
            """])
        // The app comes back ready, or its unit fails: whichever happens first ends the wait.
        let unit = Demo.unit
        try waitUntil("checkin-demo to be ready or failed", timeout: .seconds(120)) {
            if try Units.property(unit, "ActiveState") == "failed" { return (true, "") }
            return try Demo.ready()
        }
        if try Units.property(unit, "ActiveState") == "failed" {
            let limit = try Command.run(["journalctl", "--no-pager", "-q", "-u", unit, "-g", "repeated too quickly"]).stdout
                .split(separator: "\n").last.map(String.init) ?? ""
            throw CheckFailure(
                "checkin-demo failed (Result=\(try Units.property(unit, "Result")), NRestarts=\(try Units.property(unit, "NRestarts"))) "
                    + "after a burst of permission changes; systemd said: \(limit)")
        }
        let camera = try AttackedApp.state("permissions.camera")
        #expect(camera == "denied", "the app's camera after the burst (the store's last state): got '\(camera)'")
        let stored = try Command.expect(0, ["relaunchctl", "permission", "get", "checkin-demo", "camera"]).line
        #expect(stored == "denied", "the store's camera after the burst: got '\(stored)'")
        let restored = try AttackedApp.state("modal.note")
        #expect(restored == typed, "the restored modal's note after the burst: expected '\(typed)', got '\(restored)'")
        // Each killing change that found the app running killed it once: kills name distinct instances,
        // and there are as many as changes that say they killed.
        try journalSync()
        let kills = try Journal.entries(["MESSAGE_ID": Permissiond.killedID], after: mark) { _ in true }
            .map { $0["KILLED_INVOCATION_ID"] ?? "" }
        let killing = try Journal.entries(["MESSAGE_ID": Permissiond.changedID, "KILL": "true"], after: mark) { _ in true }.count
        let distinct = Set(kills).count
        #expect(kills.count == distinct, "kills of distinct instances: \(kills.count) kills of \(distinct) instances: \(kills)")
        #expect(killing == distinct, "changes that killed vs kills: \(killing) changes said they killed, \(distinct) kills")
        #expect(distinct >= 2, "only \(distinct) kills for \(changes) changes")
        note("\(changes) changes 80 ms apart: \(distinct) kills, app active, start limit not hit")
    }
}
