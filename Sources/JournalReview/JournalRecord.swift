import RelaunchContract

/// One journal entry as the review sees it: its wall-clock time and its fields.
///
/// The review works on plain values so that it can be fed from the live journal, from a folder
/// exported by `scripts/sandbox down --journal-out`, or from a test.
package struct JournalRecord: Sendable, Equatable {
    /// The entry's realtime timestamp, microseconds since the Unix epoch.
    package var realtimeUSec: UInt64
    /// The entry's fields, by name: all of them, or at least those the timeline reads
    /// (``TimelineStream/fieldNames``).
    package var fields: [String: String]

    /// Creates a record from its timestamp and fields.
    package init(realtimeUSec: UInt64, fields: [String: String]) {
        self.realtimeUSec = realtimeUSec
        self.fields = fields
    }

    /// The entry's MESSAGE_ID, if any.
    package var messageID: String? { fields["MESSAGE_ID"] }

    /// Whether systemd (PID 1) wrote the entry about a unit, rather than the unit itself: by its
    /// MESSAGE_ID; ``JournalTrust`` has checked `_PID` and `_UID` before the timeline reads it.
    package var isFromManager: Bool {
        guard let messageID else { return false }
        return ManagerMessageID(rawValue: messageID) != nil
    }

    /// The unit the entry is about: `UNIT=` for systemd's own entries, else the sender's unit as
    /// journald saw it (`_SYSTEMD_UNIT`; a `UNIT=` an app wrote is its own claim, never its unit).
    package var unit: String? { isFromManager ? fields["UNIT"] : fields["_SYSTEMD_UNIT"] }

    /// The invocation the entry is about: `INVOCATION_ID=` for systemd's entries, else the sender's.
    package var invocationID: String? {
        isFromManager ? fields["INVOCATION_ID"] : fields["_SYSTEMD_INVOCATION_ID"]
    }

    /// When the event itself happened, µs since the epoch. journald stamps an entry when it receives
    /// it, and permissiond sends its entries after the kill it reports, so its entries carry the
    /// moment of the change (CHANGED_USEC) and of the kill (KILLED_USEC); others use the journal's.
    package var eventTimeUSec: UInt64 {
        let own = messageID == MessageID.permissionChanged.rawValue ? fields["CHANGED_USEC"]
            : messageID == MessageID.appKilled.rawValue ? fields["KILLED_USEC"] : nil
        return own.flatMap { UInt64($0) } ?? realtimeUSec
    }

    /// The machine the entry was written on (journald's `_MACHINE_ID`), or an empty string.
    package var machineID: String { fields["_MACHINE_ID"] ?? "" }

    /// The boot the entry was written in (journald's `_BOOT_ID`), or an empty string.
    package var bootID: String { fields["_BOOT_ID"] ?? "" }

    /// The value of `name`, or an empty string.
    package subscript(name: String) -> String { fields[name] ?? "" }
}
