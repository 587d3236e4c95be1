internal import Glibc

/// A file operation that failed, with the path and the system's errno.
public struct StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done (`"create"`, `"write"`, `"fsync"`, `"rename"`, …).
    public var operation: String
    /// The file or directory it was done on.
    public var path: String
    /// The errno the system call set.
    public var code: Int32
    /// What to do about it, when the usual advice (the directory, its permissions, the disk) is not it.
    public var advice: String?

    /// An error for `operation` on `path` that failed with errno `code`; `advice` says what to do.
    public init(operation: String, path: String, code: Int32, advice: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.advice = advice
    }

    /// What went wrong and what to do, in one line.
    public var description: String {
        let reason = String(cString: strerror(code))
        return "could not \(operation) \(path): \(reason) (errno \(code)); "
            + (advice ?? "check that the directory exists, is writable and the disk is not full")
    }
}

/// Thin wrappers over the system calls the store needs: each retries EINTR and turns -1 into `StorageError`.
enum Syscall {
    /// Runs `call` until it does not fail with EINTR; a negative result becomes a `StorageError`.
    static func run<Result: BinaryInteger>(
        _ operation: String, _ path: String, _ call: () -> Result
    ) throws(StorageError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw StorageError(operation: operation, path: path, code: code) }
        }
    }

    static func open(_ path: String, _ flags: Int32, _ operation: String = "open") throws(StorageError) -> Int32 {
        try run(operation, path) { Glibc.open(path, flags | O_CLOEXEC, 0o600) }
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ path: String) throws(StorageError) {
        // What is left after a partial write is a slice of the same storage: nothing is copied.
        var rest = bytes[...]
        while !rest.isEmpty {
            let count = try run("write", path) { rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress!, $0.count) } }
            rest = rest.dropFirst(count)
        }
    }

    /// Up to `limit` bytes from the start of the file, in a buffer sized by the file (one byte more,
    /// to see its end), not by the limit: a 2 KB archive under a 16 MiB limit costs 2 KB.
    static func readUpTo(_ descriptor: Int32, limit: Int, _ path: String) throws(StorageError) -> [UInt8] {
        var info = stat()
        let known = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) + 1 : 64 * 1024
        var bytes = [UInt8](repeating: 0, count: min(limit, max(known, 1)))
        var filled = 0
        while filled < limit {
            if filled == bytes.count { bytes += [UInt8](repeating: 0, count: min(limit, bytes.count * 2) - bytes.count) }
            let count = try run("read", path) {
                bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    static func fsync(_ descriptor: Int32, _ path: String) throws(StorageError) {
        _ = try run("fsync", path) { Glibc.fsync(descriptor) }
    }

    /// Flushes a directory's entries, so that a rename or unlink in it survives a crash.
    static func fsyncDirectory(_ path: String) throws(StorageError) {
        let descriptor = try open(path, O_RDONLY | O_DIRECTORY, "open directory")
        defer { _ = Glibc.close(descriptor) }
        try fsync(descriptor, path)
    }

    static func close(_ descriptor: Int32, _ path: String) throws(StorageError) {
        // Linux closes the descriptor even when close fails with EINTR, so it is never retried.
        guard Glibc.close(descriptor) == 0 else { throw StorageError(operation: "close", path: path, code: errno) }
    }
}
