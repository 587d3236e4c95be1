import JournalReview
import Systemd

/// Reads the entries the review needs from the live journal or an exported folder.
enum JournalSource {
    /// Every entry with one of `messageIDs`, from `sinceUSec` on (the whole journal when nil).
    static func records(directory: String?, sinceUSec: UInt64?, messageIDs: [String]) throws(CLIError) -> [JournalRecord] {
        do {
            let reader = try directory.map { (path) throws(SystemdError) in try JournalReader(directory: path) }
                ?? JournalReader(flags: [.localOnly])
            for id in messageIDs {
                try reader.addMatch("MESSAGE_ID", id)
                try reader.addDisjunction()
            }
            if let sinceUSec {
                try reader.seek(realtimeMicroseconds: sinceUSec)
            } else {
                try reader.seekHead()
            }
            var records: [JournalRecord] = []
            while let entry = try reader.nextEntry() {
                if let sinceUSec, entry.realtimeMicroseconds < sinceUSec { continue }
                records.append(JournalRecord(realtimeUSec: entry.realtimeMicroseconds, fields: entry.fields))
            }
            return records
        } catch {
            let place = directory.map { "the journal files in \($0)" } ?? "the journal"
            throw CLIError(.failed, "cannot read \(place): \(error)")
        }
    }
}
