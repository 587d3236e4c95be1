import ArgumentParser
import RelaunchContract
import RelaunchctlCore
import ScenarioKit

#if canImport(Glibc)
import Glibc
#endif

/// `relaunchctl scenario …`: play permission-toggle scenario files against the running system.
struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "Play permission-toggle scenarios (files of steps) against permissiond and the app.",
        discussion: """
        Each FILE holds one scenario, one step per line (see scenarios/README.md). Before each \
        scenario the app is stopped, its saved state removed, its permissions reset and the ios \
        policy restored, so scenarios do not depend on each other. Needs root and a running \
        systemd with the project's units (the sandbox: scripts/sandbox exec -- relaunchctl ...). \
        The last line printed is "N passed, N failed".
        """,
        subcommands: [Run.self, Check.self]
    )
}

extension ScenarioCommand {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Play scenario files; print a line per scenario.")

        @Argument(help: "Scenario files (*.scenario).") var files: [String]
        @Option(parsing: .unconditional, help: "Seconds any single wait (a relaunch, a journal entry) may take.") var timeout: Double = 30
        @Flag(help: "Print every step as it runs.") var verbose = false

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one scenario file") }
            try validateTimeout(timeout)
        }

        func run() async throws {
            var passed = 0
            var failed = 0
            let scenarios = try files.map { (file) throws(CLIError) in try loadScenario(file) }
            let target = try AppTarget.resolve(nil)
            for scenario in scenarios {
                let start = monotonicMicroseconds()
                var runner = ScenarioRunner(
                    timeout: .milliseconds(Int64(timeout * 1000)), verbose: verbose, target: target)
                do {
                    try runner.play(scenario)
                    passed += 1
                    print("PASS \(scenario.name) (\(scenario.steps.count) steps, \(elapsed(since: start)))")
                } catch {
                    failed += 1
                    // The failure may quote what the app, systemd or the journal said.
                    print("FAIL \(inert(error.description)) (\(elapsed(since: start)))")
                }
            }
            print("\(passed) passed, \(failed) failed")
            if failed > 0 { throw CLIError(.failed, "\(failed) of \(passed + failed) scenarios failed") }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Parse scenario files without running them.")
        @Argument(help: "Scenario files.") var files: [String]
        func run() async throws {
            for file in files {
                let scenario = try loadScenario(file)
                print("\(scenario.name): \(scenario.steps.count) steps — \(scenario.summary)")
            }
        }
    }
}

/// Reads and parses one scenario file; the name is the file name without `.scenario`.
func loadScenario(_ path: String) throws(CLIError) -> Scenario {
    let text = try readTextFile(path)
    var name = String(path.split(separator: "/").last ?? Substring(path))
    if name.hasSuffix(".scenario") { name.removeLast(".scenario".count) }
    do {
        return try Scenario.parse(text, name: name)
    } catch {
        throw .usage(error.description)
    }
}

/// Reads a whole text file of at most `limit` bytes, or fails naming it and saying why: a
/// folder, a device that never ends (`/dev/zero`) and an oversized file are refused, not read.
func readTextFile(_ path: String, limit: Int = 1 << 20) throws(CLIError) -> String {
    let name = Echo.quoted(path, limit: 200)
    var info = stat()
    guard stat(path, &info) == 0 else { throw .failed("cannot read \(name): \(errnoText())") }
    if info.st_mode & S_IFMT == S_IFDIR {
        throw .failed("cannot read \(name): it is a folder; name a file")
    }
    guard let file = fopen(path, "r") else { throw .failed("cannot read \(name): \(errnoText())") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count > 0 { bytes += buffer[..<count] }
        if bytes.count > limit {
            throw .failed("cannot read \(name): it is larger than \(limit / 1024) KiB (a scenario is a short text file)")
        }
        if count < buffer.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Checks a `--timeout` in seconds: more than 0, at most an hour.
func validateTimeout(_ seconds: Double) throws {
    guard seconds.isFinite, seconds > 0 else {
        throw ValidationError("--timeout must be more than 0 seconds (got \(seconds)); e.g. --timeout 30")
    }
    guard seconds <= 3600 else {
        throw ValidationError("--timeout must be at most 3600 seconds (got \(seconds))")
    }
}

func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
}


private func elapsed(since start: UInt64) -> String {
    let ms = (monotonicMicroseconds() - start) / 1000
    return "\(ms / 1000).\(ms % 1000 / 100)s"
}
