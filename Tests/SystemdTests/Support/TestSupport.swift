import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs `argv` to completion, returning its exit status; stdout/stderr are inherited.
@discardableResult
func run(_ argv: [String]) -> Int32 {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    guard posix_spawn(&pid, argv[0], nil, nil, cArgs, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// A pipe; both ends closed on deinit.
struct Pipe: ~Copyable {
    let readEnd: CInt
    let writeEnd: CInt

    init() throws {
        var fds: [CInt] = [0, 0]
        try #require(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
    }

    /// Reads what is available right now (the write end must have been written already).
    func readAvailable() -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(readEnd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}

/// Sets an environment variable for the duration of `body`, restoring the old value after.
func withEnvironment<R>(_ name: String, _ value: String?, _ body: () throws -> R) throws -> R {
    let old = getenv(name).map { String(cString: $0) }
    if let value { setenv(name, value, 1) } else { unsetenv(name) }
    defer { if let old { setenv(name, old, 1) } else { unsetenv(name) } }
    return try body()
}

/// A shared, lock-protected value that escaping closures (bus handlers) can capture.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
