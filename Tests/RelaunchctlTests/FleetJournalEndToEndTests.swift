import FoundationEssentials
import Glibc
import RelaunchTestSupport
import Testing

/// The fleet review end to end on real journal files: one relaunch sent through the real
/// systemd-journal-remote as two hosts (the same invocation ids, each host's own `_HOSTNAME`,
/// `_MACHINE_ID` and `_BOOT_ID`), read by the built relaunchctl (issue 22's adversarial case: joined,
/// it read "2 incidents, 1 kill").
@Suite("relaunchctl journal over a fleet's journal-remote files", .serialized)
struct FleetJournalEndToEndTests {
    static let hosts = [("fleet-a", String(repeating: "a1", count: 16), String(repeating: "b1", count: 16)),
                        ("fleet-b", String(repeating: "a2", count: 16), String(repeating: "b2", count: 16))]

    /// A folder with both hosts' files, removed afterwards.
    final class Fleet {
        let directory: TemporaryDirectory
        var path: String { directory.path }

        init() throws {
            directory = try TemporaryDirectory(prefix: "relaunchctl-fleet")
            for (hostname, machine, boot) in FleetJournalEndToEndTests.hosts {
                try ExportedRelaunch.write(hostname: hostname, machine: machine, boot: boot, into: path)
            }
        }
    }

    func review(_ arguments: [String]) throws -> ReviewJSON {
        let result = try Executable.run(["journal", "--json"] + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try JSONDecoder().decode(ReviewJSON.self, from: Data(result.stdout.utf8))
    }

    @Test("Two hosts with the same invocation ids: two incidents, each with its own host and its own kill")
    func twoHostsTwoIncidents() throws {
        let fleet = try Fleet()
        let report = try review(["--directory", fleet.path])
        #expect(report.incidents.map(\.host) == ["fleet-a", "fleet-b"])
        #expect(report.incidents.map(\.machineID) == Self.hosts.map(\.1))
        for incident in report.incidents {
            let kinds = incident.events.map(\.kind)
            #expect(kinds == ["permission-changed", "kill-sent", "process-exited", "restart-scheduled",
                              "process-started", "restoration-finished", "launched", "ready"])
        }
        #expect(report.summary.incidents == 2)
        #expect(report.summary.kills == 2)
        #expect(report.summary.byHost.mapValues(\.kills) == ["fleet-a": 1, "fleet-b": 1])
        #expect(report.summary.byHost["fleet-b"]?.machineID == Self.hosts[1].1)
        #expect(report.summary.byApp.mapValues(\.incidents) == ["checkin-demo": 2])
        // --file reads the same; the text names each incident's host.
        let files = Self.hosts.map { fleet.path + "/remote-\($0.0).journal" }
        #expect(try review(["--file"] + files).summary.kills == 2)
        let text = try Executable.run(["journal", "--directory", fleet.path])
        #expect(text.stdout.contains("host fleet-a  checkin-demo"))
        #expect(text.stdout.contains("host fleet-b  checkin-demo"))
        #expect(text.stdout.contains("summary: 2 incidents, 2 kills, 2 restores"))
    }

    @Test("--host selects hosts by hostname or machine id; an unknown one is a one-line error")
    func selectHosts() throws {
        let fleet = try Fleet()
        #expect(try review(["--directory", fleet.path, "--host", "fleet-b"]).incidents.map(\.host) == ["fleet-b"])
        #expect(try review(["--directory", fleet.path, "--host", Self.hosts[0].1]).incidents.map(\.host) == ["fleet-a"])
        let both = try review(["--directory", fleet.path, "--host", "fleet-b", "--host", Self.hosts[0].1])
        #expect(both.incidents.map(\.host) == ["fleet-a", "fleet-b"])
        let unknown = try Executable.run(["journal", "--directory", fleet.path, "--host", "fleet-z"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "relaunchctl: no host 'fleet-z' in the journal files in \(fleet.path) (2 hosts: fleet-a, fleet-b)\n")
    }

    @Test("--report writes one self-contained page atomically; an unwritable path is a one-line error")
    func report() throws {
        let fleet = try Fleet()
        let page = fleet.path + "/fleet.html"
        let result = try Executable.run(["journal", "--directory", fleet.path, "--report", page])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(page): 2 incidents, 2 kills"))
        let html = try Executable.run([page], program: "/bin/cat").stdout
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(!html.contains("<script") && !html.contains("https://") && !html.contains("<link"))
        #expect(html.contains("<svg") && html.contains("fleet-a") && html.contains("fleet-b"))
        let listing = try Executable.run([fleet.path], program: "/bin/ls").stdout
        #expect(!listing.contains("fleet.html."), "a temporary file was left: \(listing)")
        let unwritable = try Executable.run(["journal", "--directory", fleet.path, "--report", "/proc/fleet.html"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.hasPrefix("relaunchctl: cannot write the report '/proc/fleet.html': "))
        #expect(unwritable.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("--file of a missing file is a usage error; of a file that is no journal, a one-line failure")
    func badFiles() throws {
        let missing = try Executable.run(["journal", "--file", "/nonexistent/remote-x.journal"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("relaunchctl: --file '/nonexistent/remote-x.journal' is not a journal file"))
        #expect(missing.stderr.filter { $0 == "\n" }.count == 1)
        let notJournal = try Executable.run(["journal", "--file", "/etc/hostname"])
        #expect(notJournal.status == 1)
        #expect(notJournal.stderr.hasPrefix("relaunchctl: cannot read the journal file /etc/hostname: "))
        #expect(notJournal.stderr.filter { $0 == "\n" }.count == 1)
        let both = try Executable.run(["journal", "--merge", "--directory", "/tmp"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("use only one of --directory, --file and --merge"))
    }
}
