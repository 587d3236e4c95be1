import JournalReview
import RelaunchctlCore

#if canImport(Glibc)
import Glibc
#endif

/// The permission changes of permissiond's history that the journal lacks: the incidents read are
/// noted, then compared with the database's rows of the same span.
///
/// A change whose entries the journal lost (rotated away, dropped while journald was not reading,
/// suppressed) leaves no incident, yet its row is in the history: the review names it. Only this
/// machine's history is here, so only for the live journal (with `--merge` too: its own machine's
/// incidents), and only when the database is readable (root; it lives in permissiond's 0700 state
/// directory): otherwise the comparison says nothing.
struct HistoryCheck {
    /// permissiond's database (StateDirectory=permissiond, DaemonSettings.databaseFileName).
    static let defaultDatabasePath = "/var/lib/permissiond/permissions.db"

    /// What identifies a change in both: its journal entry carries the row's time as CHANGED_USEC.
    struct Key: Hashable {
        var app: String
        var permission: String
        var old: String
        var new: String
        var atUSec: UInt64
    }

    /// The database to read, or nil when there is nothing to compare (another place, or unreadable).
    let databasePath: String?
    /// This machine's id: incidents of other machines (journal-remote's, with --merge) do not count.
    let machineID: String
    private var seen: Set<Key> = []

    /// A check for a review of `place`; inert unless it is this machine's journal and the database
    /// at `databasePath` can be read.
    init(place: JournalPlace, hosts: [String], databasePath: String = Self.defaultDatabasePath) {
        let local = place == .live || place == .merge
        self.databasePath = local && hosts.isEmpty && access(databasePath, R_OK) == 0 ? databasePath : nil
        machineID = Self.localMachineID()
    }

    /// Notes an incident the review read.
    mutating func note(_ incident: Incident) {
        note(Key(app: incident.app, permission: incident.permission, old: incident.oldState,
                 new: incident.newState, atUSec: incident.changedAtUSec), machineID: incident.machineID)
    }

    /// Notes the change of an incident of machine `machineID` (empty when its entry has none).
    mutating func note(_ change: Key, machineID: String) {
        guard databasePath != nil, machineID.isEmpty || machineID == self.machineID else { return }
        seen.insert(change)
    }

    /// The history's changes from `sinceUSec` on (of `app` when given) that no noted incident
    /// shows, oldest first; nil when there was nothing to compare with.
    /// - Throws: a ``CLIError`` when the database is there but cannot be read.
    func missing(sinceUSec: UInt64?, app: String?) throws(CLIError) -> [PermissionHistory.Change]? {
        guard let databasePath else { return nil }
        let changes: [PermissionHistory.Change]
        do {
            changes = try PermissionHistory.changes(path: databasePath, sinceUSec: sinceUSec, app: app)
        } catch {
            throw CLIError(.failed, "cannot compare the journal with permissiond's history: \(error)")
        }
        return changes.filter {
            !seen.contains(Key(app: $0.app, permission: $0.permission, old: $0.old, new: $0.new, atUSec: $0.atUSec))
        }
    }

    /// The text lines that name `missing`: a count, then up to `limit` changes, one a line.
    static func lines(_ missing: [PermissionHistory.Change], limit: Int = 20) -> [String] {
        guard !missing.isEmpty else { return [] }
        let count = missing.count
        var lines = ["\(count) permission \(count == 1 ? "change" : "changes") in permissiond's history "
            + "\(count == 1 ? "is" : "are") missing from the journal:"]
        for change in missing.prefix(limit) {
            lines.append("  \(Self.time(change.atUSec))  \(change.app) \(change.permission) \(change.old) → \(change.new)"
                + " (uid \(change.callerUID), history row \(change.id))")
        }
        if count > limit { lines.append("  … and \(count - limit) more") }
        return lines
    }

    /// `YYYY-MM-DD HH:MM:SS.uuuuuu` in local time.
    private static func time(_ usec: UInt64) -> String {
        var seconds = time_t(usec / 1_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        let micros = String(usec % 1_000_000)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            + "." + String(repeating: "0", count: 6 - micros.count) + micros
    }

    /// /etc/machine-id's 32 hex digits, or an empty string when it cannot be read.
    private static func localMachineID() -> String {
        guard let file = fopen("/etc/machine-id", "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
