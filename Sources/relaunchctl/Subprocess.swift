#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper program (systemctl) and collects its standard output.
enum Subprocess {
    /// The result of one run.
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs `argv` (looked up in PATH), waiting for it; standard error passes through.
    static func run(_ argv: [String]) throws(CLIError) -> Result {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw .failed("cannot create a pipe: \(errnoText())") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])

        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw .failed("cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count > 0 { output += buffer[..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        close(pipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Runs `argv` and fails with its name and status unless it exits 0.
    @discardableResult
    static func check(_ argv: [String]) throws(CLIError) -> String {
        let result = try run(argv)
        guard result.status == 0 else {
            throw .failed("'\(argv.joined(separator: " "))' exited \(result.status)")
        }
        return result.output
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
