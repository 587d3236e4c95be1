import ArgumentParser
import Glibc
import RelaunchctlJournal
import RelaunchTestSupport
import Testing

/// `relaunchctl journal` reads plain arguments without ArgumentParser (``JournalOptions/init(plainArguments:)``):
/// whatever that reader accepts must be what ArgumentParser reads from the same arguments, and everything
/// else must be left to ArgumentParser (nil), which prints the help or the error.
@Suite("relaunchctl journal's plain-argument reader")
struct JournalArgumentsTests {
    /// Arguments after `journal`, and whether the plain reader should read them itself.
    /// `$DIR` and `$OTHER` stand for existing folders, `$ODD` for one named `a=b ü`, `$FILE` for a file.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var plain: Bool

        init(_ arguments: [String], plain: Bool) {
            self.arguments = arguments
            self.plain = plain
        }

        var testDescription: String {
            arguments.map { $0.count > 40 ? "\($0.prefix(20))…(\($0.count) characters)" : $0 }.description
        }
    }

    static let cases: [Case] = [
        // Plain: each option alone, with a space or `=`, together, in any order.
        Case([], plain: true),
        Case(["--json"], plain: true),
        Case(["--directory", "$DIR"], plain: true),
        Case(["--directory=$DIR"], plain: true),
        Case(["--directory", "$ODD"], plain: true),
        Case(["--directory=$ODD"], plain: true),
        Case(["--since", "-10min"], plain: true),
        Case(["--since=-10min"], plain: true),
        Case(["--since", "-2h"], plain: true),
        Case(["--since", "-1d"], plain: true),
        Case(["--since", "-30s"], plain: true),
        Case(["--since", "@1700000000.25"], plain: true),
        Case(["--since", "2026-03-02 09:00:00"], plain: true),
        Case(["--app", "checkin-demo"], plain: true),
        Case(["--app=checkin-demo"], plain: true),
        Case(["--app", "journal"], plain: true),
        Case(["--app", "help"], plain: true),
        Case(["--app", String(repeating: "a", count: 64)], plain: true),
        Case(["--json", "--since", "-5min", "--directory", "$DIR", "--app", "checkin-demo"], plain: true),
        Case(["--app=checkin-demo", "--directory=$DIR", "--since=@0", "--json"], plain: true),
        // Repeated: the last wins.
        Case(["--app", "checkin-demo", "--app", "notes-py"], plain: true),
        Case(["--json", "--json"], plain: true),
        Case(["--since", "-1h", "--since=-2h"], plain: true),
        Case(["--directory", "$DIR", "--directory=$OTHER"], plain: true),
        // Unknown options, help, completion, positional arguments: ArgumentParser's.
        Case(["--bogus"], plain: false),
        Case(["--bogus", "x"], plain: false),
        Case(["--JSON"], plain: false),
        Case(["--jso"], plain: false),
        Case(["-json"], plain: false),
        Case(["-j"], plain: false),
        Case(["--help"], plain: false),
        Case(["-h"], plain: false),
        Case(["help"], plain: false),
        Case(["--json", "--help"], plain: false),
        Case(["--since", "-h"], plain: false),
        Case(["--experimental-dump-help"], plain: false),
        Case(["--generate-completion-script", "bash"], plain: false),
        Case(["---completion", "--", "--app"], plain: false),
        Case(["extra"], plain: false),
        Case(["--json", "extra"], plain: false),
        Case(["--"], plain: false),
        Case(["--", "--json"], plain: false),
        Case(["--json", "--"], plain: false),
        Case(["--json=true"], plain: false),
        Case(["--json="], plain: false),
        // Missing and empty values: `--app=` reads the next argument in ArgumentParser.
        Case(["--app"], plain: false),
        Case(["--since"], plain: false),
        Case(["--directory"], plain: false),
        Case(["--app", ""], plain: false),
        Case(["--app="], plain: false),
        Case(["--app=", "checkin-demo"], plain: false),
        Case(["--directory", ""], plain: false),
        Case(["--directory="], plain: false),
        Case(["--since", ""], plain: false),
        Case(["--since="], plain: false),
        // A value that is an option name, a dash or the terminator.
        Case(["--app", "--json"], plain: false),
        Case(["--directory", "--json"], plain: false),
        Case(["--since", "--json"], plain: false),
        Case(["--since", "--app", "checkin-demo"], plain: false),
        Case(["--since", "--"], plain: false),
        Case(["--since", "---5"], plain: false),
        Case(["--since", "-=5"], plain: false),
        Case(["--directory", "-"], plain: false),
        Case(["--app", "-checkin"], plain: false),
        // Values that fail validation.
        Case(["--app", "bad id"], plain: false),
        Case(["--app", "Checkin"], plain: false),
        Case(["--app", String(repeating: "a", count: 65)], plain: false),
        Case(["--since", "yesterday"], plain: false),
        Case(["--since", "@99999999999999999"], plain: false),
        Case(["--since=-99999999999999d"], plain: false),
        Case(["--directory", "/nonexistent"], plain: false),
        Case(["--directory", "/etc/passwd"], plain: false),
        // Non-ASCII, multi-line and very long.
        Case(["--app", "café"], plain: false),
        Case(["--jsön"], plain: false),
        Case(["--json\u{301}"], plain: false),
        Case(["--app=\u{301}checkin-demo"], plain: false),
        Case(["\u{2014}json"], plain: false),
        Case(["--app", "checkin-demo\nnotes-py"], plain: false),
        Case(["--since", "-5min\n"], plain: false),
        Case(["--directory", "$DIR\n"], plain: false),
        Case(["--app", String(repeating: "x", count: 100_000)], plain: false),
        Case(["--directory", "$DIR/" + String(repeating: "x", count: 5000)], plain: false),
        Case([String(repeating: "-", count: 3000)], plain: false),
        // Fleet review: --file and --host collect every one, --merge is a flag, --report takes a path.
        Case(["--merge"], plain: true),
        Case(["--host", "fleet-a"], plain: true),
        Case(["--host=fleet-a", "--host", "0123456789abcdef0123456789abcdef"], plain: true),
        Case(["--report", "/tmp/fleet.html"], plain: true),
        Case(["--report=/tmp/fleet.html", "--report", "/tmp/other.html"], plain: true),
        Case(["--file", "$FILE"], plain: true),
        Case(["--file=$FILE", "--file", "$FILE"], plain: true),
        Case(["--json", "--host", "a", "--directory", "$DIR", "--report=/tmp/r.html", "--host=b"], plain: true),
        Case(["--merge", "--host", "fleet-a", "--app", "checkin-demo", "--since", "-1h"], plain: true),
        Case(["--file", "$FILE", "$FILE"], plain: false),
        Case(["--file", "$FILE", "--file"], plain: false),
        Case(["--file", "/nonexistent.journal"], plain: false),
        Case(["--file", "$DIR"], plain: false),
        Case(["--file", "-"], plain: false),
        Case(["--merge=true"], plain: false),
        Case(["--merge", "--directory", "$DIR"], plain: false),
        Case(["--file", "$FILE", "--directory", "$DIR"], plain: false),
        Case(["--host"], plain: false),
        Case(["--host", ""], plain: false),
        Case(["--host="], plain: false),
        Case(["--host", "--json"], plain: false),
        Case(["--host", "a", "b"], plain: false),
        Case(["--report"], plain: false),
        Case(["--report", ""], plain: false),
        Case(["--report", "--json"], plain: false),
    ]

    @Test("reads plain arguments exactly as ArgumentParser does, and leaves all others to it", arguments: cases)
    func sameAsArgumentParser(_ test: Case) throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let other = folder.path + "/other"
        let odd = folder.path + "/a=b ü"
        let file = folder.path + "/remote-fleet-a.journal"
        mkdir(other, 0o755)
        mkdir(odd, 0o755)
        try folder.write("", to: "remote-fleet-a.journal")
        defer {
            rmdir(other)
            rmdir(odd)
            unlink(file)
        }
        let arguments = test.arguments.map {
            $0.replacing("$DIR", with: folder.path).replacing("$OTHER", with: other).replacing("$ODD", with: odd)
                .replacing("$FILE", with: file)
        }

        let plain = JournalOptions(plainArguments: arguments)
        let parsed = try? JournalCommand.parse(arguments).options
        #expect((plain != nil) == test.plain, "read plainly: \(String(describing: plain))")
        if let plain {
            #expect(plain == parsed, "ArgumentParser read \(String(describing: parsed))")
        }
    }
}
