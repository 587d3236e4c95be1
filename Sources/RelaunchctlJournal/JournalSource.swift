import JournalReview
import RelaunchContract
import ScenarioKit
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Reads the timeline from the live journal or an exported folder, an incident at a time.
///
/// Two passes over one open journal (``TimelineStream``): permissiond's entries, then every entry
/// the timeline matches. Of each entry only the fields the timeline reads are copied
/// (``JournalFieldPicker``), journald's trusted fields among them, and a record is built only for an
/// entry ``JournalTrust`` believes and that can join an incident.
enum JournalSource {
    /// Calls `take` with each incident from `sinceUSec` on (the whole journal when nil), oldest first,
    /// as soon as it can no longer change.
    /// - Returns: the entries left out by their trusted fields, by reason.
    static func incidents(
        directory: String?, sinceUSec: UInt64?, _ take: (Incident) -> Void
    ) throws(CLIError) -> [JournalTrust.Reason: Int] {
        do {
            let reader = try directory.map { (path) throws(SystemdError) in try JournalReader(directory: path) }
                ?? JournalReader(flags: [.localOnly])
            var picker = JournalFieldPicker(TimelineStream.fieldNames)

            var plan = TimelineStream.Plan(trust: trust(directory: directory))
            try select(TimelineStream.daemonMessageIDs, sinceUSec: sinceUSec, in: reader)
            while let realtime = try next(reader, sinceUSec: sinceUSec) {
                try reader.pick(&picker)
                plan.add(JournalRecord(realtimeUSec: realtime, fields: picker.fields))
            }

            var stream = TimelineStream(consume plan)
            try select(TimelineReport.messageIDs, sinceUSec: sinceUSec, in: reader)
            while let realtime = try next(reader, sinceUSec: sinceUSec) {
                try reader.pick(&picker)
                guard stream.admit(PickedEntry(picker: picker)) else { continue }
                guard stream.add(JournalRecord(realtimeUSec: realtime, fields: picker.fields)) else { break }
                for incident in stream.takeFinished() { take(incident) }
            }
            for incident in stream.finish() { take(incident) }
            return stream.ignored
        } catch {
            let place = directory.map { "the journal files in \($0)" } ?? "the journal"
            throw CLIError(.failed, "cannot read \(place): \(error)")
        }
    }

    /// The rules for the journal read: whose entries are permissiond's, and the apps' units.
    ///
    /// The live journal (this machine's files only) is judged by this machine's passwd database:
    /// permissiond's uid is that of its user by name. A folder of journal files may be other
    /// machines' (exported, or systemd-journal-remote's), whose passwd database is not here and
    /// whose uid for the user may differ (sysusers.d allocates it on each machine): there the uid is
    /// the one permissiond.service's daemon shows in its own entries, per machine
    /// (``JournalTrust/PermissiondUser/shownByItsEntries``). Either way the apps' units are those
    /// registered here, and the units permissiond's believed kill entries name for their apps.
    static func trust(directory: String?) -> JournalTrust {
        let user: JournalTrust.PermissiondUser = directory != nil ? .shownByItsEntries
            : userID(of: JournalTrust.permissiondUserName).map { .uid($0) } ?? .unknown
        return JournalTrust(permissiondUser: user, registry: AppRegistry.load())
    }

    /// The uid of the user `name` in the passwd database, or nil when there is no such user.
    static func userID(of name: String) -> UInt32? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let result = getpwnam_r(name, &entry, &buffer, buffer.count, &found)
        guard result == 0, found != nil else { return nil }
        return entry.pw_uid
    }

    /// The picked fields of the current entry, as ``JournalTrust`` reads them.
    private struct PickedEntry: JournalTrustFields {
        let picker: JournalFieldPicker

        /// Each judged field's position in ``TimelineStream/fieldNames``, in `Field.allCases` order.
        private static let positions: [Int] = JournalTrust.Field.allCases.map {
            TimelineStream.fieldNames.firstIndex(of: $0.rawValue)!
        }

        private static func position(_ field: JournalTrust.Field) -> Int {
            switch field {
            case .messageID: positions[0]
            case .unit: positions[1]
            case .appID: positions[2]
            case .systemdUnit: positions[3]
            case .uid: positions[4]
            case .pid: positions[5]
            case .command: positions[6]
            case .machineID: positions[7]
            }
        }

        func value(of field: JournalTrust.Field) -> String? {
            picker.value(of: Self.position(field))
        }

        func has(_ field: JournalTrust.Field, equalTo value: String) -> Bool {
            picker.has(Self.position(field), equalTo: value)
        }

        func contains(_ field: JournalTrust.Field) -> Bool {
            picker.contains(Self.position(field))
        }
    }

    /// Only entries with one of `messageIDs`, from `sinceUSec` on.
    private static func select(_ messageIDs: [String], sinceUSec: UInt64?, in reader: JournalReader) throws(SystemdError) {
        reader.flushMatches()
        for id in messageIDs {
            try reader.addMatch("MESSAGE_ID", id)
            try reader.addDisjunction()
        }
        if let sinceUSec {
            try reader.seek(realtimeMicroseconds: sinceUSec)
        } else {
            try reader.seekHead()
        }
    }

    /// Moves to the next entry from `sinceUSec` on and returns its time, or nil at the end.
    private static func next(_ reader: JournalReader, sinceUSec: UInt64?) throws(SystemdError) -> UInt64? {
        while try reader.next() {
            let realtime = try reader.realtimeMicroseconds()
            if let sinceUSec, realtime < sinceUSec { continue }
            return realtime
        }
        return nil
    }
}
