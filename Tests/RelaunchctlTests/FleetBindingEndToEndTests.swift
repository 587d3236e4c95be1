import FoundationEssentials
import Glibc
import Testing

/// Issue 35's forgeries, end to end on files written by the real systemd-journal-remote and read by
/// the built relaunchctl: an entry in fleet-b's file claiming fleet-a (its machine id and hostname,
/// permissiond's unit, dated 1970) hid fleet-a's incident when its uid was another, and added one
/// when it was permissiond's. With the receiver's host table beside the files it changes nothing
/// and is counted as claiming another host.
@Suite("relaunchctl journal: each fleet host bound to its pinned machine", .serialized)
struct FleetBindingEndToEndTests {
    static let a = FleetJournalEndToEndTests.hosts[0]
    static let b = FleetJournalEndToEndTests.hosts[1]

    /// fleet-a's and fleet-b's files, and in fleet-b's the forged entry with `uid`.
    func fleet(forgedUID uid: String, table: Bool) throws -> FleetJournalEndToEndTests.Fleet {
        let fleet = try FleetJournalEndToEndTests.Fleet()
        let forged = "__REALTIME_TIMESTAMP=1000000\n__MONOTONIC_TIMESTAMP=1\n_BOOT_ID=\(String(repeating: "f", count: 32))\n"
            + "_MACHINE_ID=\(Self.a.1)\n_HOSTNAME=fleet-a\nMESSAGE_ID=9b3f5994e16840eb93c15d94fb1674bd\nAPP_ID=checkin-demo\n"
            + "PERMISSION=camera\nOLD_STATE=denied\nNEW_STATE=allowed\nCALLER_UID=0\nKILL=true\nCHANGED_USEC=1000000\n"
            + "_SYSTEMD_UNIT=permissiond.service\n_COMM=permissiond\n_PID=4242\n_UID=\(uid)\n\n"
        try write(forged, to: fleet.path + "/forged.export")
        let result = try Executable.run(["-c", "exec \(ExportedRelaunch.remote) --output=\(fleet.path)/remote-fleet-b.journal "
            + "--split-mode=none - < \(fleet.path)/forged.export"], program: "/bin/sh")
        guard result.status == 0 else { throw TestFailure("systemd-journal-remote failed: \(result.stderr)") }
        if table {
            try write("# certificate-name machine-id hostname\nfleet-a \(Self.a.1) fleet-a\nfleet-b \(Self.b.1) fleet-b\n",
                      to: fleet.path + "/fleet-hosts")
        }
        return fleet
    }

    func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw TestFailure("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }

    func review(_ arguments: [String]) throws -> ReviewJSON {
        let result = try Executable.run(["journal", "--json"] + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try JSONDecoder().decode(ReviewJSON.self, from: Data(result.stdout.utf8))
    }

    @Test("Without the host table (a receiver not upgraded) another uid no longer hides fleet-a's incident; the real uid still adds one")
    func beforeTheTable() throws {
        // permissiond's uid is the one most of its entries show, so one entry of uid 4242 is left out.
        let hiddenFleet = try fleet(forgedUID: "4242", table: false)
        let hidden = try review(["--directory", hiddenFleet.path, "--host", "fleet-a"])
        #expect(hidden.summary.incidents == 1)
        #expect(hidden.summary.kills == 1)
        #expect(hidden.summary.ignoredByReason == ["permission-entry-not-from-permissiond-user": 1])
        // Any file may still claim any machine: only the table binds a file to its host.
        let added = try fleet(forgedUID: "991", table: false)
        #expect(try review(["--directory", added.path, "--host", "fleet-a"]).summary.incidents == 2)
    }

    @Test("With the host table an entry in fleet-b's file claiming fleet-a changes nothing and is counted", arguments: ["4242", "991"])
    func withTheTable(uid: String) throws {
        let fleet = try fleet(forgedUID: uid, table: true)
        let report = try review(["--directory", fleet.path])
        #expect(report.incidents.map(\.host) == ["fleet-a", "fleet-b"])
        #expect(report.summary.kills == 2)
        #expect(report.summary.ignoredByReason == ["entry-claiming-another-host": 1])
        let one = try review(["--directory", fleet.path, "--host", "fleet-a"])
        #expect(one.incidents.count == 1)
        #expect(one.summary.kills == 1)
        let text = try Executable.run(["journal", "--directory", fleet.path])
        #expect(text.stdout.hasSuffix("ignored 1 entry: 1 entry claiming another host\n"))
        // --file reads the same; --host by the certificate name too.
        #expect(try review(["--file", fleet.path + "/remote-fleet-a.journal", fleet.path + "/remote-fleet-b.journal"]).summary.kills == 2)
    }

    @Test("A host's file holding its uploads out of time order (the app's namespace arriving last), one entry sent twice, reviews as the host's own")
    func uploadsOutOfOrder() throws {
        let fleet = try FleetJournalEndToEndTests.Fleet()
        let (hostname, machine, boot) = Self.a
        // fleet-a's file again, written as its uploads arrived: the app's entries last, and its
        // launch entry twice (an upload the receiver had written part of, sent again whole).
        _ = try Executable.run(["-f", fleet.path + "/remote-fleet-a.journal"], program: "/bin/rm")
        let launched = ExportedRelaunch.relaunchedApp.merging(
            ["MESSAGE_ID": "0c3ece682843457296ab0da296a09171", "LAUNCH_OUTCOME": "restored", "BUILD_NUMBER": "7"]) { $1 }
        try ExportedRelaunch.write(hostname: hostname, machine: machine, boot: boot, into: fleet.path,
                                   extra: [(130_500, launched)], appLast: true)
        try write("# certificate-name machine-id hostname\nfleet-a \(Self.a.1) fleet-a\nfleet-b \(Self.b.1) fleet-b\n",
                  to: fleet.path + "/fleet-hosts")
        let report = try review(["--directory", fleet.path, "--host", "fleet-a"])
        #expect(report.incidents.map { $0.events.map(\.kind) } == [
            ["permission-changed", "kill-sent", "process-exited", "restart-scheduled", "process-started",
             "restoration-finished", "launched", "ready"],
        ])
    }

    @Test("A host table that cannot be read is a one-line error naming the file and the line")
    func badTable() throws {
        let fleet = try fleet(forgedUID: "4242", table: false)
        try write("fleet-a \(Self.a.1) fleet-a\nfleet-b not-an-id fleet-b\n", to: fleet.path + "/fleet-hosts")
        let result = try Executable.run(["journal", "--directory", fleet.path])
        #expect(result.status == 1)
        #expect(result.stderr == "relaunchctl: the host table \(fleet.path)/fleet-hosts: line 2: 'not-an-id' is not a machine id "
            + "(32 hex digits); fix the line (docs/FLEET.md)\n")
    }
}
