import Foundation

/// Who a command runs as: `setpriv --reuid --regid --clear-groups`, by number or by name.
public struct RunAs: Sendable, Hashable, CustomStringConvertible {
    public let user: String
    public init(_ user: String) { self.user = user }
    public init(uid: Int) { self.user = String(uid) }
    /// uid/gid 65534: a stranger with no rights.
    public static let nobody = RunAs(uid: 65534)
    public var description: String { "uid \(user)" }
    var prefix: [String] { ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] }
}

/// What a finished command did: its exit status and its output.
public struct CommandResult: Sendable, CustomStringConvertible {
    public let argv: [String]
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// stdout, then stderr: what a check searches for a phrase (as bash's `2>&1`, without the interleaving).
    public var output: String { stdout + stderr }
    /// stdout without its trailing newlines.
    public var line: String { stdout.trimmingCharacters(in: .newlines) }
    public var description: String {
        "'\(argv.joined(separator: " "))' exited \(status); output: \(output.isEmpty ? "(nothing)" : output)"
    }
}

/// A command that could not run to its end.
public enum CommandError: Error, CustomStringConvertible {
    case cannotStart([String], String)
    case timedOut([String], Duration)
    public var description: String {
        switch self {
        case .cannotStart(let argv, let why): "could not start '\(argv.joined(separator: " "))': \(why)"
        case .timedOut(let argv, let bound): "'\(argv.joined(separator: " "))' did not end within \(bound); killed"
        }
    }
}

/// Runs programs the way the end-to-end checks do: by name on PATH, as root or as another user, with
/// stdout and stderr kept apart and a bound on how long each may take.
public enum Command {
    /// Runs `argv` (the program found on PATH) and returns when it has exited. A program still running
    /// after `timeout` is killed with SIGKILL and the call throws `CommandError.timedOut`.
    @discardableResult
    public static func run(
        _ argv: [String], as user: RunAs? = nil, input: String? = nil,
        environment: [String: String] = [:], timeout: Duration = .seconds(120)
    ) throws -> CommandResult {
        let full = (user?.prefix ?? []) + argv
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = full
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // Files, not pipes: a chatty program cannot fill a pipe nobody reads while this waits.
        let scratch = try TemporaryDirectory(prefix: "command")
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        if let input {
            let inURL = scratch.url.appendingPathComponent("stdin")
            try Data(input.utf8).write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            throw CommandError.cannotStart(full, "\(error)")
        }
        if ended.wait(timeout: .now() + timeout.timeInterval) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            ended.wait()
            throw CommandError.timedOut(full, timeout)
        }
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return CommandResult(argv: full, status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Runs `argv` and returns its result when it exited with `status`; throws `CheckFailure` otherwise,
    /// naming the command, what it exited with and what it said.
    @discardableResult
    public static func expect(
        _ status: Int32, _ argv: [String], as user: RunAs? = nil, input: String? = nil,
        timeout: Duration = .seconds(120)
    ) throws -> CommandResult {
        let result = try run(argv, as: user, input: input, timeout: timeout)
        guard result.status == status else {
            throw CheckFailure("\(result) (expected exit \(status))")
        }
        return result
    }
}

extension Duration {
    /// The duration in seconds, as Dispatch and Foundation take it.
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
