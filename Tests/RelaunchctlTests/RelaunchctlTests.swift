import CheckIn
import RelaunchApp
import Glibc
import RelaunchContract
import RestorationKit
import RelaunchTestSupport
import Testing

/// Runs the built `relaunchctl` the way a script would and checks what it prints and returns.
@Suite("relaunchctl as a program")
struct RelaunchctlTests {
    @Test("A bad permission or state is a usage error: one line, exit 2")
    func badNames() throws {
        let result = try Executable.run(["permission", "set", "checkin-demo", "torch", "allowed"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("accepted: camera, microphone, photos, contacts, calendars, location"))

        let state = try Executable.run(["permission", "set", "checkin-demo", "camera", "maybe"])
        #expect(state.status == 2)
        #expect(state.stderr.contains("accepted: allowed, denied, not-determined"))
    }

    @Test("A child killed by a signal is not read as a clean exit")
    func killedChild() throws {
        let killed = try Executable.run(["-c", "kill -KILL $$"], program: "/bin/sh")
        #expect(killed.signal == SIGKILL)
        #expect(killed.status == 128 + SIGKILL)
        let exited = try Executable.run(["-c", "exit 3"], program: "/bin/sh")
        #expect(exited.signal == nil && exited.status == 3)
    }

    @Test("No system bus means unreachable: exit 69 with what to do")
    func unreachable() throws {
        let apps = try TemporaryDirectory(prefix: "relaunchctl-test")
        try apps.write("[App]\nUnit=checkin-demo.service\nBusName=org.relaunch.CheckInDemo1\n", to: "checkin-demo.conf")
        let environment = [
            "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/relaunch-test-bus", "RELAUNCH_APPS_D=\(apps.path)",
        ]
        for arguments in [["permission", "get", "checkin-demo", "camera"], ["app", "screen"]] {
            let result = try Executable.run(arguments, environment: environment)
            #expect(result.status == 69, "\(arguments)")
            #expect(result.stderr.hasPrefix("relaunchctl: "))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("Unknown options and bad --since values exit 2")
    func usage() throws {
        #expect(try Executable.run(["journal", "--since", "yesterday-ish"]).status == 2)
        // Times too large for µs arithmetic are refused, not a crash.
        #expect(try Executable.run(["journal", "--since", "@99999999999999999"]).status == 2)
        #expect(try Executable.run(["journal", "--since=-99999999999999d"]).status == 2)
        #expect(try Executable.run(["app", "wait-ready", "--timeout", "-1"]).status == 2)
        #expect(try Executable.run(["frobnicate"]).status == 2)
        let help = try Executable.run(["--help"])
        #expect(help.status == 0)
        let words = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("Exit codes: 0 done, 1 failed, 2 usage, 69 app or daemon unreachable, 77 not authorized."))
    }

    @Test("An empty journal folder reviews to no incidents")
    func emptyJournal() throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let result = try Executable.run(["journal", "--directory", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("summary: 0 incidents, 0 kills, 0 restores, 0 discards"))
        let json = try Executable.run(["journal", "--directory", folder.path, "--json"])
        #expect(json.stdout.contains("\"incidents\" : ["))
    }

    @Test("archive dump reads the seed scenario's archive and refuses a damaged one with its reason")
    func archiveDump() throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let app = CheckInApp(buildNumber: "42", camera: .denied)
        _ = app.launch(candidates: [], restoringMark: MemoryRestoringMark())
        _ = try app.tap("tab:check-in")
        _ = try app.tap("check-in")
        _ = try app.type("note", "Window seat")
        _ = app.background()
        let preservation = try app.preserve()
        let file = ArchiveFile(directory: folder.path)
        try file.write(preservation.bytes)

        let text = try Executable.run(["archive", "dump", file.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("build 42"))
        #expect(text.stdout.contains("TabViewController/CheckInViewController/CheckInModalNavigationController\n"))
        #expect(text.stdout.contains("no restoration class"))
        #expect(text.stdout.contains("    view NoteTextView (RestorationKit.TextView)\n"))
        #expect(text.stdout.contains("        TextView.text = \"Window seat\"\n"))
        let json = try Executable.run(["archive", "dump", file.path, "--json"])
        #expect(json.stdout.contains("\"buildVersion\": \"42\""))
        #expect(json.stdout.contains("\"views\": [{\"identifier\": \"NoteTextView\", \"class\": \"RestorationKit.TextView\""))

        var damaged = preservation.bytes
        damaged[damaged.count / 2] ^= 0x5a
        try file.write(damaged)
        let refused = try Executable.run(["archive", "dump", file.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("reason corrupt"))

        try file.write(Array(preservation.bytes.prefix(10)))
        #expect(try Executable.run(["archive", "dump", file.path]).stderr.contains("reason corrupt"))
        #expect(try Executable.run(["archive", "dump", folder.path + "/missing"]).status == 1)
    }

    @Test("scenario check reports a bad line as file:line with what is accepted")
    func scenarioCheck() throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let path = folder.path + "/broken.scenario"
        try folder.write("tap check-in\nset camera sometimes\n", to: "broken.scenario")
        let result = try Executable.run(["scenario", "check", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("broken:2: unknown state 'sometimes'"))
    }
}

/// The built executable, run as a child process with its output captured.
enum Executable {
    struct Result {
        /// The exit status, or 128 + the signal that killed it (as a shell reports it).
        var status: Int32
        var stdout: String
        var stderr: String
        /// The signal that killed it, if one did.
        var signal: Int32?
    }

    /// `relaunchctl` next to the test bundle in the build folder.
    static var path: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer.prefix(max(0, count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var folder = exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]
        // The test runner may live inside an .xctest bundle folder.
        while folder.contains(".xctest") {
            folder = folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]
        }
        return folder + "/relaunchctl"
    }

    static func run(_ arguments: [String], environment: [String] = [], program: String = path) throws -> Result {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let out = folder.path + "/out", err = folder.path + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = [program] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = (["PATH=/usr/bin:/bin", "LANG=C.UTF-8"] + environment).map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, &cArgs, &cEnv)
        guard spawned == 0 else { throw TestFailure("cannot run \(program): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED: the low 7 bits are 0; otherwise they hold the signal (WTERMSIG).
        let signal: Int32? = status & 0x7f == 0 ? nil : status & 0x7f
        return Result(
            status: signal.map { 128 + $0 } ?? (status >> 8) & 0xff, stdout: try folder.read("out"),
            stderr: try folder.read("err"), signal: signal)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
