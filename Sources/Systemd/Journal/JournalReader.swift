import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Reads the systemd journal: open, filter with matches, seek, step and read entries.
///
/// Not thread-safe (like `sd_journal`): use one reader from one thread at a time.
/// ```swift
/// let reader = try JournalReader(directory: "/tmp/journal")   // or JournalReader()
/// try reader.addMatch("SYSLOG_IDENTIFIER", "myapp")
/// try reader.seek(realtimeMicroseconds: since)
/// while let entry = try reader.nextEntry() { print(entry.message ?? "") }
/// ```
package final class JournalReader {
    /// Which journal files ``init(flags:)`` opens (`SD_JOURNAL_*`).
    package struct OpenFlags: OptionSet, Sendable, Hashable {
        /// The `SD_JOURNAL_*` bits.
        package var rawValue: Int32
        /// Wraps `SD_JOURNAL_*` bits.
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// Only this machine's journal (not other machines' files in the journal directories).
        package static let localOnly = OpenFlags(rawValue: Int32(SD_JOURNAL_LOCAL_ONLY))
        /// Only the volatile journal in /run.
        package static let runtimeOnly = OpenFlags(rawValue: Int32(SD_JOURNAL_RUNTIME_ONLY))
        /// System services and the kernel.
        package static let system = OpenFlags(rawValue: Int32(SD_JOURNAL_SYSTEM))
        /// The current user's journal.
        package static let currentUser = OpenFlags(rawValue: Int32(SD_JOURNAL_CURRENT_USER))
        /// Every journal namespace (`LogNamespace=`, systemd-journald@NAMESPACE) besides the default
        /// one, as `journalctl --namespace='*'` reads them.
        package static let allNamespaces = OpenFlags(rawValue: Int32(SD_JOURNAL_ALL_NAMESPACES))
    }

    /// The open `sd_journal` (``JournalReader+Files.swift`` reads it too).
    let journal: OpaquePointer
    let source: String

    /// Opens the machine's journal (`sd_journal_open_namespace`), by default this machine's files of
    /// the default namespace only; with ``OpenFlags/allNamespaces`` every namespace's too.
    package init(flags: OpenFlags = [.localOnly]) throws(SystemdError) {
        var raw: OpaquePointer?
        _ = try sdCall("sd_journal_open_namespace", on: "the system journal") {
            sd_journal_open_namespace(&raw, nil, flags.rawValue)
        }
        journal = raw!
        source = "the system journal"
        sd_journal_set_data_threshold(journal, 0)
    }

    /// Opens the journal files in `directory` (`sd_journal_open_directory`), e.g. an exported journal.
    package init(directory: String) throws(SystemdError) {
        var raw: OpaquePointer?
        _ = try sdCall("sd_journal_open_directory", on: directory) { sd_journal_open_directory(&raw, directory, 0) }
        journal = raw!
        source = directory
        sd_journal_set_data_threshold(journal, 0)
    }

    /// Opens exactly the journal files `paths` (`sd_journal_open_files`), e.g. systemd-journal-remote's
    /// `remote-HOST.journal` files of several hosts; `source` names them in errors.
    package init(files paths: [String], source: String) throws(SystemdError) {
        var raw: OpaquePointer?
        let copies = paths.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var list: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        _ = try sdCall("sd_journal_open_files", on: source) { sd_journal_open_files(&raw, &list, 0) }
        journal = raw!
        self.source = source
        sd_journal_set_data_threshold(journal, 0)
    }

    deinit { sd_journal_close(journal) }

    // MARK: Matches

    /// Only entries with `field=value` (same field twice: either value; different fields: both).
    package func addMatch(_ field: String, _ value: String) throws(SystemdError) {
        let match = Array("\(field)=\(value)".utf8)
        _ = try sdCall("sd_journal_add_match", on: "\(field)=\(value)") {
            match.withUnsafeBytes { sd_journal_add_match(journal, $0.baseAddress, $0.count) }
        }
    }

    /// Starts an alternative group of matches: entries matching the groups before OR the next one.
    package func addDisjunction() throws(SystemdError) {
        _ = try sdCall("sd_journal_add_disjunction", on: source) { sd_journal_add_disjunction(journal) }
    }

    /// Combines the groups before AND the next one.
    package func addConjunction() throws(SystemdError) {
        _ = try sdCall("sd_journal_add_conjunction", on: source) { sd_journal_add_conjunction(journal) }
    }

    /// Removes every match.
    package func flushMatches() { sd_journal_flush_matches(journal) }

    // MARK: Seeking

    /// Before the first entry; ``next()`` then reads the oldest.
    package func seekHead() throws(SystemdError) {
        _ = try sdCall("sd_journal_seek_head", on: source) { sd_journal_seek_head(journal) }
    }

    /// After the last entry; ``previous()`` then reads the newest.
    package func seekTail() throws(SystemdError) {
        _ = try sdCall("sd_journal_seek_tail", on: source) { sd_journal_seek_tail(journal) }
    }

    /// Just before the first entry at or after `realtimeMicroseconds` (µs since the epoch).
    package func seek(realtimeMicroseconds: UInt64) throws(SystemdError) {
        _ = try sdCall("sd_journal_seek_realtime_usec", on: source) {
            sd_journal_seek_realtime_usec(journal, realtimeMicroseconds)
        }
    }

    /// At the entry `cursor` names; ``next()`` then reads that entry (or the closest one).
    package func seek(cursor: String) throws(SystemdError) {
        _ = try sdCall("sd_journal_seek_cursor", on: cursor) { sd_journal_seek_cursor(journal, cursor) }
    }

    // MARK: Stepping

    /// Moves to the next entry; false at the end.
    package func next() throws(SystemdError) -> Bool {
        try sdCall("sd_journal_next", on: source) { sd_journal_next(journal) } > 0
    }

    /// Moves to the previous entry; false at the beginning.
    package func previous() throws(SystemdError) -> Bool {
        try sdCall("sd_journal_previous", on: source) { sd_journal_previous(journal) } > 0
    }

    /// Moves forward and reads the entry there, or nil at the end.
    package func nextEntry() throws(SystemdError) -> JournalEntry? {
        try next() ? try currentEntry() : nil
    }

    /// Moves backward and reads the entry there, or nil at the beginning.
    package func previousEntry() throws(SystemdError) -> JournalEntry? {
        try previous() ? try currentEntry() : nil
    }

    /// Reads up to `limit` entries forward from the current position.
    package func entries(limit: Int = .max) throws(SystemdError) -> [JournalEntry] {
        var result: [JournalEntry] = []
        while result.count < limit, let entry = try nextEntry() { result.append(entry) }
        return result
    }

    /// Waits up to `timeout` for the journal to change (for following); true if it did.
    package func wait(timeout: Duration) throws(SystemdError) -> Bool {
        let usec = UInt64(max(0, timeout / .microseconds(1)))
        return try sdCall("sd_journal_wait", on: source) { sd_journal_wait(journal, usec) } != Int32(SD_JOURNAL_NOP)
    }

    // MARK: The current entry

    /// Every field of the current entry (for a repeated field, the last value; binary data is
    /// decoded as UTF-8 with replacement characters).
    package func currentFields() throws(SystemdError) -> [String: String] {
        var fields: [String: String] = [:]
        sd_journal_restart_data(journal)
        while true {
            var data: UnsafeRawPointer?
            var length = 0
            let result = try sdCall("sd_journal_enumerate_data", on: source) {
                sd_journal_enumerate_data(journal, &data, &length)
            }
            guard result > 0, let data else { return fields }
            let (name, value) = Self.split(UnsafeRawBufferPointer(start: data, count: length))
            fields[name] = value
        }
    }

    /// Fills `picker` with its fields from the current entry, in one walk over the entry's data.
    package func pick(_ picker: inout JournalFieldPicker) throws(SystemdError) {
        picker.reset()
        sd_journal_restart_data(journal)
        while true {
            var data: UnsafeRawPointer?
            var length = 0
            let result = try sdCall("sd_journal_enumerate_data", on: source) {
                sd_journal_enumerate_data(journal, &data, &length)
            }
            guard result > 0, let data else { return }
            picker.offer(UnsafeRawBufferPointer(start: data, count: length))
        }
    }

    /// The value of `field` in the current entry, or nil if it has none.
    package func field(_ name: String) throws(SystemdError) -> String? {
        var data: UnsafeRawPointer?
        var length = 0
        let result = sd_journal_get_data(journal, name, &data, &length)
        if result == -ENOENT { return nil }
        _ = try sdCall("sd_journal_get_data", on: name) { result }
        return data.map { Self.split(UnsafeRawBufferPointer(start: $0, count: length)).value }
    }

    /// The current entry's wall-clock time in µs since the epoch.
    package func realtimeMicroseconds() throws(SystemdError) -> UInt64 {
        var usec: UInt64 = 0
        _ = try sdCall("sd_journal_get_realtime_usec", on: source) { sd_journal_get_realtime_usec(journal, &usec) }
        return usec
    }

    /// The current entry's monotonic time in µs and the boot it belongs to.
    package func monotonic() throws(SystemdError) -> (microseconds: UInt64, bootID: String) {
        var usec: UInt64 = 0
        var boot = sd_id128_t()
        _ = try sdCall("sd_journal_get_monotonic_usec", on: source) {
            sd_journal_get_monotonic_usec(journal, &usec, &boot)
        }
        let bytes = withUnsafeBytes(of: boot.bytes) { Array($0) }
        return (usec, SystemdManager.hex(bytes))
    }

    /// The current entry's cursor.
    package func cursor() throws(SystemdError) -> String {
        var raw: UnsafeMutablePointer<CChar>?
        _ = try sdCall("sd_journal_get_cursor", on: source) { sd_journal_get_cursor(journal, &raw) }
        defer { free(raw) }
        return String(cString: raw!)
    }

    /// Whether the current entry is the one `cursor` names.
    package func isAt(cursor: String) throws(SystemdError) -> Bool {
        try sdCall("sd_journal_test_cursor", on: cursor) { sd_journal_test_cursor(journal, cursor) } > 0
    }

    /// The current entry with its fields, timestamps and cursor.
    package func currentEntry() throws(SystemdError) -> JournalEntry {
        let (monotonicUsec, bootID) = try monotonic()
        return JournalEntry(
            fields: try currentFields(), realtimeMicroseconds: try realtimeMicroseconds(),
            monotonicMicroseconds: monotonicUsec, bootID: bootID, cursor: try cursor()
        )
    }

    private static func split(_ bytes: UnsafeRawBufferPointer) -> (name: String, value: String) {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            return (String(decoding: bytes, as: UTF8.self), "")
        }
        return (String(decoding: bytes[..<equals], as: UTF8.self),
                String(decoding: bytes[(equals + 1)...], as: UTF8.self))
    }
}
