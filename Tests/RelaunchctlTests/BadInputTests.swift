import Testing

/// Bad input gets a short, accurate, one-line answer and never hangs (issue: inputs that echoed
/// 1 MiB back, read /dev/zero forever, or gave wrong advice).
@Suite("relaunchctl on bad input")
struct BadInputTests {
    @Test("No arguments at all is a usage error: exit 2, with the usage on stderr")
    func noArguments() throws {
        let result = try Executable.run([])
        #expect(result.status == 2)
        #expect(result.stderr.contains("USAGE: relaunchctl <subcommand>"))
        #expect(result.stdout.isEmpty)
    }

    @Test("scenario check of an endless device is refused, not read forever")
    func endlessFile() throws {
        let result = try Executable.run(["scenario", "check", "/dev/zero"])
        #expect(result.status == 1)
        #expect(result.stderr == "relaunchctl: cannot read '/dev/zero': it is larger than 1024 KiB (a scenario is a short text file)\n")
    }

    @Test("archive dump of a folder says it is a folder")
    func folder() throws {
        let result = try Executable.run(["archive", "dump", "/etc"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("relaunchctl: cannot read '/etc': it is a folder"))
    }

    @Test("--timeout 0 and -1 are refused with what is accepted", arguments: ["0", "-1", "nan", "4000"])
    func timeouts(value: String) throws {
        for command in [["app", "wait-ready"], ["scenario", "run", "x.scenario"]] {
            let result = try Executable.run(command + ["--timeout", value])
            #expect(result.status == 2, "\(command) --timeout \(value)")
            #expect(result.stderr.contains("--timeout must be"), "\(result.stderr)")
            #expect(!result.stderr.contains("Missing value"))
        }
    }

    @Test("A huge multi-line argument comes back cut to one short line")
    func hugeArgument() throws {
        // One argument may be at most 128 KiB (MAX_ARG_STRLEN); D-Bus callers can send more.
        let huge = "line one\nline two" + String(repeating: "x", count: 100_000)
        let result = try Executable.run(["permission", "set", "checkin-demo", huge, "allowed"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.utf8.count < 400, "\(result.stderr.utf8.count) bytes")
        #expect(result.stderr.contains("'line one\\nline two"))
    }
}
