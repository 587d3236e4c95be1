import RelaunchContract
import RelaunchctlCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes `--report`'s file whole or not at all: into a temporary file beside it, then renamed over it,
/// so a reader (a browser, a web server) never sees half a report.
enum ReportFile {
    /// Writes `text` to `path` atomically.
    /// - Throws: a one-line ``CLIError`` (exit 1) naming the path and the system's reason.
    static func write(_ text: String, to path: String) throws(CLIError) {
        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path, errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let code = errno
                close(fd)
                unlink(temporary)
                throw failure(path, code)
            }
            bytes = bytes.dropFirst(written)
        }
        // Readable as any file the user writes (mkstemp makes it 0600).
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        guard fsync(fd) == 0, close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> CLIError {
        CLIError(.failed, "cannot write the report \(Echo.quoted(path)): \(String(cString: strerror(code)))")
    }
}

/// The open-file limit: sd_journal keeps every journal file it reads open, and a fleet's folder holds
/// one file per host (and more once they rotate), past the usual soft limit of 1024.
enum FileLimit {
    /// Raises the soft limit of open files to the hard limit.
    static func raise() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
