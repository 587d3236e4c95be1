/// One journal entry as read by ``JournalReader``.
package struct JournalEntry: Sendable, Hashable {
    /// Every field of the entry (for a field that repeats, the last value).
    package var fields: [String: String]
    /// When it was logged: microseconds since the Unix epoch (`__REALTIME_TIMESTAMP`).
    package var realtimeMicroseconds: UInt64
    /// Microseconds since boot (`__MONOTONIC_TIMESTAMP`), valid within ``bootID``.
    package var monotonicMicroseconds: UInt64
    /// The boot the monotonic time belongs to, 32 hex digits.
    package var bootID: String
    /// The entry's cursor, for ``JournalReader/seek(cursor:)`` and `journalctl --after-cursor`.
    package var cursor: String

    /// Creates an entry by hand (e.g. in tests of code that formats entries).
    package init(fields: [String: String], realtimeMicroseconds: UInt64, monotonicMicroseconds: UInt64 = 0,
                bootID: String = "", cursor: String = "") {
        self.fields = fields
        self.realtimeMicroseconds = realtimeMicroseconds
        self.monotonicMicroseconds = monotonicMicroseconds
        self.bootID = bootID
        self.cursor = cursor
    }

    /// The value of field `name`, if present.
    package subscript(_ name: String) -> String? { fields[name] }

    /// `MESSAGE`.
    package var message: String? { fields["MESSAGE"] }

    /// `MESSAGE_ID`.
    package var messageID: String? { fields["MESSAGE_ID"] }
}
