import Foundation
import RelaunchTestSupport
import Testing

/// The review cannot be emptied by noise (CONTRACT.md, "Revocation cannot be starved"): a local user
/// or an app that floods the journal removes no entry of permissiond or of an app from `relaunchctl
/// journal`, a burst of another's entries makes journald drop none of them, and `relaunchctl journal`
/// as root names any change of permissiond's history the journal lacks.
///
/// The default journal gets a small size bound for the floods (`Flood.boundConf`), so that a flood of
/// `Flood.mebibytes` proves the same rotation a stranger's gigabytes would cause on a host's default
/// bound; a marker written to the default journal before each flood must be gone after it (else the
/// flood proved nothing). The bound is taken back at the end of each check, whatever happens.
/// (Formerly tests/sandbox/checks/journal-flood.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct JournalFloodChecks {
    /// Nobody but the unit itself writes to a Relaunch unit's journal namespace: not a local user, not
    /// another app's user (its `socket` and `dev-log` refuse them, its `stdout` refuses a stranger).
    /// Then a stranger (uid 65534, no groups) floods the default journal through journald's stdout
    /// socket, as anyone may, past its bound: both incidents stay in the review.
    @Test func journalFloodByAStrangerLeavesEveryIncident() throws {
        let namespaces = try Command.expect(0, ["systemctl", "show", "-P", "LogNamespace", "permissiond.service", "checkin-demo.service"])
            .stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        for namespace in Set(namespaces).sorted() {
            guard !namespace.isEmpty else { throw CheckFailure("permissiond.service or checkin-demo.service has no LogNamespace=") }
            for socket in ["socket", "dev-log"] {
                for user in ["nobody", "relaunch-banca"] {
                    let group = try Command.expect(0, ["id", "-g", user]).line
                    let said = try Command.expect(1, ["setpriv", "--reuid=\(user)", "--regid=\(group)", "--clear-groups", "python3", "-c", """
                        import socket, sys
                        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                        try:
                            s.sendto(b'MESSAGE=written into another namespace\\n', '/run/systemd/journal.\(namespace)/\(socket)')
                        except PermissionError as error:
                            print('refused:', error); sys.exit(1)
                        print('accepted'); sys.exit(0)
                        """])
                    try Assert.contains(said.output, "refused", "\(user) writing to /run/systemd/journal.\(namespace)/\(socket)")
                }
            }
            try Command.expect(1, ["python3", "-c", """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    s.connect('/run/systemd/journal.\(namespace)/stdout')
                except PermissionError as error:
                    print('refused:', error); sys.exit(1)
                print('accepted'); sys.exit(0)
                """], as: .nobody)
        }

        let since = try Flood.start()
        defer { Flood.unbound() }
        try Flood.bound()
        try Flood.incident("denied")
        let marker = try Flood.marker()
        try Command.expect(0, ["sh", "-c", "\(Flood.lines) | systemd-cat -t relaunch-flood"], as: .nobody, timeout: Flood.timeout)
        try Flood.expectGone(marker)
        try Flood.incident("allowed")
        try Flood.expectReview(since: since, 2, "a stranger's flood of \(Flood.mebibytes) MiB")
        let usage = try Command.run(["journalctl", "--disk-usage"]).line
        print("note: a stranger's \(Flood.mebibytes) MiB flood rotated the default journal (bound 16 MiB: \(usage)); both incidents stayed")
    }

    /// An app gone rogue: a process of banca-demo.service's user, group and journal namespace (as the
    /// unit says; none before namespaces existed) writing to its stdout, which PID 1 connects to the
    /// journal. Without a namespace the flood lands in the default journal: the marker must be gone
    /// then. With one, the default journal keeps it and banca-demo's namespace holds the flood.
    @Test func journalFloodByAnAppLeavesTheOthersEntries() throws {
        let since = try Flood.start()
        defer { Flood.unbound() }
        try Flood.bound()
        try Flood.incident("denied")
        let marker = try Flood.marker()
        var properties: [String] = []
        for name in ["User", "Group", "LogNamespace"] {
            let value = try Units.property("banca-demo.service", name)
            if !value.isEmpty { properties += ["-p", "\(name)=\(value)"] }
        }
        try Command.expect(0, ["systemd-run", "--wait", "--quiet", "-p", "DefaultDependencies=no"] + properties + ["sh", "-c", Flood.lines],
                           timeout: Flood.timeout)
        let namespace = try Units.property("banca-demo.service", "LogNamespace")
        if !namespace.isEmpty {
            try Command.expect(0, ["journalctl", "--namespace=\(namespace)", "--sync"])
            let last = try Command.run(["journalctl", "-q", "--namespace=\(namespace)", "-o", "cat", "-u", "run-*", "-n", "1"]).stdout
            guard !last.isEmpty else { throw CheckFailure("banca-demo's namespace \(namespace) shows no line of the flood") }
        } else {
            try Flood.expectGone(marker)
        }
        try Flood.incident("allowed")
        try Flood.expectReview(since: since, 2, "banca-demo's flood of \(Flood.mebibytes) MiB")
    }

    /// A stranger keeps journald's socket queue full (net.unix.max_dgram_qlen is 10 on a host without
    /// systemd's sysctl defaults): 16 processes sending 32 KiB native entries as fast as they can,
    /// blocked in sendto while the queue is full and woken first whenever journald makes room.
    /// permissiond's and the apps' writers wait a quarter of a second for room, then drop an entry:
    /// six incidents under the burst must all be in the review. The burst stops when the check leaves
    /// /run/relaunch-burst-stop, or after 5 minutes whatever happens.
    @Test func journalBurstMakesJournaldDropNoEntry() throws {
        let since = try Flood.start()
        let stop = "/run/relaunch-burst-stop"
        try? FileManager.default.removeItem(atPath: stop)
        let environment = ProcessInfo.processInfo.environment
        let burst = try Background(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "python3", "-c", """
            import os, socket, time
            BURST_PROCESSES, BURST_BYTES = \(environment["BURST_PROCESSES"] ?? "16"), \(environment["BURST_BYTES"] ?? "32768")
            end = time.monotonic() + 300
            for _ in range(BURST_PROCESSES - 1):
                if os.fork() == 0:
                    break
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            line = b'MESSAGE=' + os.urandom(BURST_BYTES // 2).hex().encode() + b'\\nSYSLOG_IDENTIFIER=relaunch-burst\\n'
            n = 0
            while n % 64 or (time.monotonic() < end and not os.path.exists('\(stop)')):
                n += 1
                try:
                    s.sendto(line, '/run/systemd/journal/socket')
                except OSError:
                    pass
            """])
        defer {
            _ = FileManager.default.createFile(atPath: stop, contents: nil)
            burst.end()
        }
        // It does fill the queue: a native entry of root's waits for room.
        try waitUntil("an entry of the burst in the journal", timeout: .seconds(30)) {
            let last = try Command.run(["journalctl", "-q", "-t", "relaunch-burst", "-n", "1", "-o", "cat"]).stdout
            return (!last.isEmpty, "no entry with SYSLOG_IDENTIFIER=relaunch-burst")
        }
        for _ in 1...3 {
            try Flood.incident("denied")
            try Flood.incident("allowed")
        }
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        burst.end()
        try Flood.expectReview(since: since, 6, "a stranger's burst of entries")
    }
}

/// The floods' steps: the default journal's bound, the marker, the incidents and the review.
private enum Flood {
    static let boundConf = "/etc/systemd/journald.conf.d/90-relaunch-flood-check.conf"
    /// 48 MiB of base64 lines (36 MiB of random bytes): about 36 MiB stored after zstd, over twice the bound.
    static let mebibytes = 48
    /// FLOOD_MIB MiB of 8000-character lines that do not compress below the bound.
    static let lines = "head -c \(mebibytes * 3 / 4)M /dev/urandom | base64 -w 8000"
    static let keep = "/var/lib/relaunch-flood-check-kept"
    /// How long a flood may take on a loaded machine: a backstop, far above what one takes.
    static let timeout = Duration.seconds(900)

    static func journalFolder() throws -> String {
        "/var/log/journal/\(try String(contentsOfFile: "/etc/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    /// The default journal (not the namespaces, which read journald@NAMESPACE.conf) keeps at most 16
    /// MiB in files of 2 MiB. Its files so far are set aside first and put back by `unbound`: the
    /// checks after this one, and the post checks of the exported journal, read entries of the whole
    /// run (systemd's from the boot), which the flood is there to rotate away.
    static func bound() throws {
        try Command.expect(0, ["journalctl", "--rotate"])
        let folder = try journalFolder()
        try Command.expect(0, ["rm", "-rf", keep])
        try Command.expect(0, ["mkdir", "-p", keep])
        try Command.expect(0, ["cp", "-a", "\(folder)/.", "\(keep)/"])
        try Command.expect(0, ["rm", "-f", "\(keep)/system.journal"])
        try FileManager.default.createDirectory(atPath: "/etc/systemd/journald.conf.d", withIntermediateDirectories: true)
        try "[Journal]\nSystemMaxUse=16M\nSystemMaxFileSize=2M\n".write(toFile: boundConf, atomically: true, encoding: .utf8)
        try Command.expect(0, ["systemctl", "restart", "systemd-journald.service"])
    }

    /// Takes the bound back and puts the set-aside files back beside what the journal holds now.
    static func unbound() {
        try? FileManager.default.removeItem(atPath: boundConf)
        Cleanup.undo("journald's restart without the bound") { try Command.expect(0, ["systemctl", "restart", "systemd-journald.service"]) }
        guard FileManager.default.fileExists(atPath: keep) else { return }
        Cleanup.undo("the set-aside journal files' return") {
            try Command.expect(0, ["cp", "-an", "\(keep)/.", "\(try journalFolder())/"])
            try Command.expect(0, ["rm", "-rf", keep])
        }
    }

    /// Logs a unique line to the default journal as root and returns it once the journal has it.
    static func marker() throws -> String {
        let token = "before-the-flood-\(UInt64(Date().timeIntervalSince1970 * 1e9))"
        try Command.expect(0, ["logger", "-t", "relaunch-flood-marker", token])
        _ = try Journal.entries(["SYSLOG_IDENTIFIER": "relaunch-flood-marker", "MESSAGE": token], timeout: .seconds(30))
        return token
    }

    /// The flood rotated the default journal past the marker TOKEN.
    static func expectGone(_ token: String) throws {
        try Command.expect(0, ["journalctl", "--sync"])
        let left = try Command.run(["journalctl", "-q", "-t", "relaunch-flood-marker", "-o", "cat"]).stdout
        if left.split(separator: "\n").contains(where: { $0 == token }) {
            let usage = try Command.run(["journalctl", "--disk-usage"]).line
            throw CheckFailure("the flood did not rotate the default journal past its marker \(token) (\(usage)); it proves nothing")
        }
    }

    /// Root sets checkin-demo's camera to STATE (a change that kills it under any policy) and waits
    /// for the relaunch.
    static func incident(_ state: String) throws {
        let said = try Command.expect(0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", state, "--wait"])
        try Assert.contains(said.output, "killed", "relaunchctl permission set checkin-demo camera \(state) --wait")
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
    }

    /// checkin-demo runs with the camera allowed; returns the time to review from (`@SECONDS`).
    static func start() throws -> String {
        _ = try Command.run(["systemctl", "reset-failed", "checkin-demo.service"])
        try Command.expect(0, ["systemctl", "start", "checkin-demo.service"])
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
        try Command.expect(0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", "allowed", "--wait"])
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
        return String(format: "@%.6f", Date().timeIntervalSince1970)
    }

    /// `relaunchctl journal` since SINCE shows WANT camera changes of checkin-demo by root, each with
    /// the kill and the relaunched app's launch entry, and names no change of permissiond's history as
    /// missing.
    static func expectReview(since: String, _ want: Int, _ what: String) throws {
        try journalSync()
        let json = try Command.expect(0, ["relaunchctl", "journal", "--since", since, "--app", "checkin-demo", "--json"]).stdout
        let review = try JSON.parse(json)
        let incidents = (JSON.value(review, ["incidents"]) as? [[String: Any]]) ?? []
        let camera = incidents.filter { $0["permission"] as? String == "camera" }
        let byRoot = camera.filter { $0["callerUID"] as? String == "0" }
        if byRoot.count != want {
            let text = try Command.run(["relaunchctl", "journal", "--since", since, "--app", "checkin-demo"]).stdout
            let tail = text.split(separator: "\n").suffix(5).joined(separator: "\n")
            throw CheckFailure("root's camera changes of checkin-demo in relaunchctl journal after \(what): expected \(want), got \(byRoot.count) (the review: \(tail))")
        }
        let whole = camera.filter { incident in
            let kinds = ((incident["events"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }
            return kinds.contains("kill-sent") && kinds.contains("launched")
        }
        try Assert.equal(String(want), String(whole.count), "camera changes with their kill and the app's launch after \(what)")
        let missing = JSON.value(review, ["summary", "missingFromJournal"])
        try Assert.equal("0", missing == nil || missing is NSNull ? "absent" : JSON.text(missing),
                            "summary.missingFromJournal after \(what) (relaunchctl journal runs as root)")
    }
}
