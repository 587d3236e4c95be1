#if canImport(Glibc)
import Glibc
#endif
import Systemd

/// Why permissiond cannot start or keep serving, as one line that says what to do.
package struct DaemonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, without the program name.
    package var description: String

    /// An error reading `line`.
    package init(_ line: String) {
        description = line
    }

    /// Writes ``line(forJournal:)`` to stderr, for journald when stderr is its stream.
    package func report() {
        StandardError.write(line(forJournal: Self.isJournalStream(fd: 2, journalStream: getenv("JOURNAL_STREAM").map { String(cString: $0) })))
    }

    /// `permissiond: LINE` and a newline, the line breaks of the description folded into spaces (one
    /// error, one journal entry); for journald with the `<3>` prefix, so it records priority err.
    package func line(forJournal: Bool) -> String {
        (forJournal ? "<3>" : "") + "permissiond: " + StandardError.oneLine(description) + "\n"
    }

    /// Whether `fd` is the stream systemd connected to journald: `$JOURNAL_STREAM` is its `dev:inode`.
    package static func isJournalStream(fd: Int32, journalStream: String?) -> Bool {
        var status = stat()
        guard let journalStream, fstat(fd, &status) == 0 else { return false }
        return journalStream == "\(status.st_dev):\(status.st_ino)"
    }
}
