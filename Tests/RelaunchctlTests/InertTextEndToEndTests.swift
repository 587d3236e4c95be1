import FoundationEssentials
import Glibc
import RestorationKit
import RelaunchTestSupport
import Testing

/// Issue 34's attack on the reader's terminal: text that a remote host or an app wrote carries an
/// escape sequence (set the window title, ring the bell, clear the screen). The built relaunchctl
/// prints it escaped in text and exact in `--json` (CONTRACT.md, "Revocation cannot be starved").
@Suite("relaunchctl prints what hosts and apps wrote inert", .serialized)
struct InertTextEndToEndTests {
    /// Set the window title to "pwned", ring the bell, clear the screen.
    static let attack = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
    /// The same, as the text output shows it.
    static let shown = #"\x1b]0;pwned\a\x1b[2J"#

    /// What no text output of relaunchctl may hold: a C0 control other than the line feed, DEL, a C1 control.
    static func rawControls(in text: String) -> [String] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
            .map { "U+" + String($0.value, radix: 16) }
    }

    @Test("A host whose name holds an escape sequence: the timeline, the host table and the --host error show it escaped; --json keeps it")
    func hostName() throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        defer { _ = try? Executable.run(["-rf", folder.path], program: "/bin/rm") }
        let evil = "fleet-" + Self.attack
        // The journal files' names are the receiver's; the host name is what the entries claim.
        for (file, hostname, machine, boot) in [("remote-evil", evil, "a1", "b1"), ("remote-fleet-b", "fleet-b", "a2", "b2")] {
            let export = folder.path + "/\(file).export"
            guard let handle = fopen(export, "w") else { throw TestFailure("cannot write \(export)") }
            fputs(ExportedRelaunch.stream(hostname: hostname, machine: String(repeating: machine, count: 16),
                                          boot: String(repeating: boot, count: 16)), handle)
            fclose(handle)
            let made = try Executable.run(
                ["-c", "exec \(ExportedRelaunch.remote) --output=\(folder.path)/\(file).journal --split-mode=none - < \(export)"],
                program: "/bin/sh")
            guard made.status == 0 else { throw TestFailure("systemd-journal-remote failed: \(made.stderr)") }
            unlink(export)
        }

        let text = try Executable.run(["journal", "--directory", folder.path])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(Self.rawControls(in: text.stdout) == [], "\(text.stdout)")
        #expect(text.stdout.contains("host fleet-\(Self.shown)  checkin-demo  camera denied → allowed"), "\(text.stdout)")
        #expect(text.stdout.contains("\nfleet-\(Self.shown)  "), "the per-host table's row: \(text.stdout)")
        #expect(text.stdout.contains("summary: 2 incidents, 2 kills, 2 restores"))

        let json = try Executable.run(["journal", "--directory", folder.path, "--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let review = try JSONDecoder().decode(ReviewJSON.self, from: Data(json.stdout.utf8))
        #expect(review.incidents.map(\.host).sorted() == [evil, "fleet-b"], "--json has the host's name as it was written")
        #expect(!json.stdout.contains("\u{1B}"), "JSON escapes it its own way")

        // An error line that lists the hosts: one line, inert.
        let unknown = try Executable.run(["journal", "--directory", folder.path, "--host", "fleet-z"])
        #expect(unknown.status == 1)
        #expect(Self.rawControls(in: unknown.stderr) == [], "\(unknown.stderr)")
        #expect(unknown.stderr.contains("fleet-\(Self.shown)"), "\(unknown.stderr)")
        #expect(unknown.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("An archive whose identifiers, class names, keys and values hold controls: dump prints them escaped, one record a line; --json keeps them")
    func archive() throws {
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "7" + Self.attack, timestamp: 0, generation: 1),
            applicationState: ["key" + Self.attack: .string("DEL\u{7F} CSI\u{9B}2J")],
            controllers: [
                ArchivedController(
                    path: ["Root", "Forged\nTabViewController"], className: "Class\u{1B}[31m",
                    restorationClassName: "Restorer\u{85}", relationships: [ArchivedRelationship(.child, "Child\u{07}")],
                    state: ["note": .string(Self.attack), "tags": .strings(["a\u{9D}b"])],
                    views: [ArchivedView(identifier: "view\u{1B}", className: "V\r", state: ["x" + Self.attack: .int(1)])]),
            ])
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let bytes = try ArchiveCodec.encode(archive)
        try ArchiveFile(directory: folder.path, fileName: "restoration.archive").write(bytes)
        let text = try Executable.run(["archive", "dump", folder.path + "/restoration.archive"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(Self.rawControls(in: text.stdout) == [], "\(text.stdout)")
        #expect(text.stdout == """
            archive: format \(ArchiveCodec.formatVersion), build 7\(Self.shown), generation 1, \(bytes.count) bytes, written at µs 0
            application state:
                key\(Self.shown) = "DEL\\x7f CSI\\xc2\\x9b2J"
            Root/Forged\\nTabViewController
                class Class\\x1b[31m, restoration class Restorer\\xc2\\x85
                child → Child\\a
                note = "\\u001b]0;pwned\\u0007\\u001b[2J"
                tags = ["a\\xc2\\x9db"]
                view view\\x1b (V\\r)
                    x\(Self.shown) = 1

            """, "\(text.stdout)")
        let json = try Executable.run(["archive", "dump", folder.path + "/restoration.archive", "--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        #expect(json.stdout.contains(#""path": "Root/Forged\nTabViewController""#), "\(json.stdout)")
        #expect(json.stdout.contains("Restorer\u{85}"), "JSON keeps what JSON may hold raw")
    }
}
