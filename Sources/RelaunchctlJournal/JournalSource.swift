import JournalReview
import ScenarioKit
import Systemd

/// Reads the timeline from the live journal or an exported folder, an incident at a time.
///
/// Two passes over one open journal (``TimelineStream``): permissiond's entries, then every entry
/// the timeline matches. Of each entry only the fields the timeline reads are copied
/// (``JournalFieldPicker``), and a record is built only for an entry that can join an incident.
enum JournalSource {
    /// Calls `take` with each incident from `sinceUSec` on (the whole journal when nil), oldest first,
    /// as soon as it can no longer change.
    static func incidents(directory: String?, sinceUSec: UInt64?, _ take: (Incident) -> Void) throws(CLIError) {
        do {
            let reader = try directory.map { (path) throws(SystemdError) in try JournalReader(directory: path) }
                ?? JournalReader(flags: [.localOnly])
            var picker = JournalFieldPicker(TimelineStream.fieldNames)

            var plan = TimelineStream.Plan()
            try select(TimelineStream.daemonMessageIDs, sinceUSec: sinceUSec, in: reader)
            while let realtime = try next(reader, sinceUSec: sinceUSec) {
                try reader.pick(&picker)
                plan.add(JournalRecord(realtimeUSec: realtime, fields: picker.fields))
            }

            var stream = TimelineStream(plan)
            try select(TimelineReport.messageIDs, sinceUSec: sinceUSec, in: reader)
            while let realtime = try next(reader, sinceUSec: sinceUSec) {
                try reader.pick(&picker)
                if !isDaemonEntry(picker) {
                    guard let unit = picker.value(of: Field.unit) ?? picker.value(of: Field.systemdUnit),
                          stream.joins(unit: unit)
                    else { continue }
                }
                guard stream.add(JournalRecord(realtimeUSec: realtime, fields: picker.fields)) else { break }
                for incident in stream.takeFinished() { take(incident) }
            }
            for incident in stream.finish() { take(incident) }
        } catch {
            let place = directory.map { "the journal files in \($0)" } ?? "the journal"
            throw CLIError(.failed, "cannot read \(place): \(error)")
        }
    }

    /// Positions in ``TimelineStream/fieldNames``.
    private enum Field {
        static let messageID = TimelineStream.fieldNames.firstIndex(of: "MESSAGE_ID")!
        static let unit = TimelineStream.fieldNames.firstIndex(of: "UNIT")!
        static let systemdUnit = TimelineStream.fieldNames.firstIndex(of: "_SYSTEMD_UNIT")!
    }

    private static let daemonMessageIDs = TimelineStream.daemonMessageIDs

    private static func isDaemonEntry(_ picker: JournalFieldPicker) -> Bool {
        daemonMessageIDs.contains { picker.has(Field.messageID, equalTo: $0) }
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
