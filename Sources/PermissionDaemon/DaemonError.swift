#if canImport(Glibc)
import Glibc
#endif

/// Why permissiond cannot start or keep serving, as one line that says what to do.
package struct DaemonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, without the program name.
    package var description: String

    /// An error reading `line`.
    package init(_ line: String) {
        description = line
    }

    /// Writes `permissiond: LINE` to stderr; under systemd (stderr is the journal stream) with the
    /// `<3>` prefix so journald records it at priority err.
    package func report() {
        let prefix = Self.stderrIsJournal ? "<3>" : ""
        var line = prefix + "permissiond: " + description.replacingNewlines() + "\n"
        line.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = write(2, rest.baseAddress, rest.count)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }

    /// Whether fd 2 is the stream systemd connected to journald (`$JOURNAL_STREAM` is its `dev:inode`).
    private static var stderrIsJournal: Bool {
        guard let raw = getenv("JOURNAL_STREAM") else { return false }
        let parts = String(cString: raw).split(separator: ":")
        var status = stat()
        guard parts.count == 2, fstat(2, &status) == 0 else { return false }
        return parts[0] == "\(status.st_dev)" && parts[1] == "\(status.st_ino)"
    }
}

extension String {
    /// The text on one line: newlines become spaces (one error, one journal line).
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
