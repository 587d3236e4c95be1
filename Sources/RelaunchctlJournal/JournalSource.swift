import JournalReview
import RelaunchContract
import ScenarioKit
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Where `relaunchctl journal` reads: the live journal, a folder, some files, or the live journal
/// merged with systemd-journal-remote's folder.
package enum JournalPlace: Equatable, Sendable {
    /// This machine's journal (`sd_journal_open`, local files only).
    case live
    /// The journal files in a folder (`sd_journal_open_directory`), e.g. an export or journal-remote's.
    case directory(String)
    /// Exactly these journal files (`sd_journal_open_files`).
    case files([String])
    /// This machine's journal and /var/log/journal/remote, as `journalctl --merge` reads both.
    case merge

    /// Where systemd-journal-remote writes by default.
    static let remoteDirectory = "/var/log/journal/remote"

    /// How errors name the place.
    var name: String {
        switch self {
        case .live: "the journal"
        case .directory(let path): "the journal files in \(path)"
        case .files(let paths): paths.count == 1 ? "the journal file \(paths[0])" : "the journal files \(paths.joined(separator: ", "))"
        case .merge: "the journal and \(Self.remoteDirectory)"
        }
    }
}

/// Reads the timeline from a ``JournalPlace``, one host after another and an incident at a time.
///
/// A first pass reads permissiond's entries of every selected host at once, each host's into its own
/// ``TimelineStream/Plan`` (by `_MACHINE_ID`); then each host's second pass reads only that host's
/// entries: the MESSAGE_ID matches in conjunction with `_MACHINE_ID=` (the journal's index finds
/// them; with one host the match is left out). `--host` adds its hosts to both passes' matches, so a
/// review of one host of many reads only that host's entries. Of each entry only the fields the
/// timeline reads are copied (``JournalFieldPicker``), journald's trusted fields among them, and a
/// record is built only for an entry ``JournalTrust`` believes and that can join an incident.
enum JournalSource {
    /// What the first pass found: the hosts with permission changes, in the order they are reviewed
    /// (by hostname, then machine id).
    struct Hosts {
        /// Machine ids in review order.
        var machines: [String]
        /// The hostname each machine's entries show.
        var hostnames: [String: String]
    }

    /// Calls `begin` with the hosts found, then `take` with each incident from `sinceUSec` on (the
    /// whole journal when nil), host after host, oldest first within a host, as soon as it can no
    /// longer change. `hosts` (hostnames or machine ids) selects hosts; empty means all.
    /// - Returns: the entries left out by their trusted fields, by reason.
    static func incidents(
        place: JournalPlace, sinceUSec: UInt64?, hosts: [String],
        begin: (Hosts) -> Void = { _ in }, _ take: (Incident) -> Void
    ) throws(CLIError) -> [JournalTrust.Reason: Int] {
        let reader: JournalReader
        do {
            reader = try open(place)
        } catch {
            throw CLIError(.failed, "cannot read \(place.name): \(error)")
        }
        do {
            let hostMatches = try matches(forHosts: hosts, in: reader, place: place)
            var picker = JournalFieldPicker(TimelineStream.fieldNames)
            let trust = trust(place: place)

            var plans: [String: TimelineStream.Plan] = [:]
            var hostnames: [String: String] = [:]
            try select(TimelineStream.daemonMessageIDs, and: hostMatches, sinceUSec: sinceUSec, in: reader)
            while let realtime = try next(reader, sinceUSec: sinceUSec) {
                try reader.pick(&picker)
                let record = JournalRecord(realtimeUSec: realtime, fields: picker.fields)
                let machine = record.machineID
                plans[machine, default: TimelineStream.Plan(trust: trust)].add(record)
                if hostnames[machine] == nil { hostnames[machine] = record["_HOSTNAME"] }
            }
            let machines = plans.keys.sorted { (hostnames[$0]!, $0) < (hostnames[$1]!, $1) }
            begin(Hosts(machines: machines, hostnames: hostnames))

            var ignored: [JournalTrust.Reason: Int] = [:]
            for machine in machines {
                var stream = TimelineStream(plans.removeValue(forKey: machine)!)
                // One host: no match needed. An entry without _MACHINE_ID cannot be matched: read all,
                // keep its own.
                let own = machines.count == 1 || machine.isEmpty ? hostMatches : [[("_MACHINE_ID", machine)]]
                try select(TimelineReport.messageIDs, and: own, sinceUSec: sinceUSec, in: reader)
                while let realtime = try next(reader, sinceUSec: sinceUSec) {
                    try reader.pick(&picker)
                    let entry = PickedEntry(picker: picker)
                    guard machines.count == 1 || (entry.value(of: .machineID) ?? "") == machine,
                          stream.admit(entry) else { continue }
                    guard stream.add(JournalRecord(realtimeUSec: realtime, fields: picker.fields)) else { break }
                    for incident in stream.takeFinished() { take(incident) }
                }
                for incident in stream.finish() { take(incident) }
                ignored.merge(stream.ignored, uniquingKeysWith: +)
            }
            return ignored
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.failed, "cannot read \(place.name): \(error)")
        }
    }

    /// Opens the journal files of `place`.
    static func open(_ place: JournalPlace) throws(SystemdError) -> JournalReader {
        switch place {
        case .live: try JournalReader(flags: [.localOnly])
        case .directory(let path): try JournalReader(directory: path)
        case .files(let paths): try JournalReader(files: paths, source: place.name)
        case .merge: try JournalReader(files: mergedFiles(), source: place.name)
        }
    }

    /// The files `journalctl --merge` reads of this machine's journal and journal-remote's: every
    /// journal file in /var/log/journal and /run/log/journal and their subfolders (each machine's
    /// folder, journal-remote's `remote`).
    static func mergedFiles() -> [String] {
        var files: [String] = []
        for root in ["/run/log/journal", "/var/log/journal"] {
            for name in folderNames(root) {
                let path = root + "/" + name
                if isJournalFile(name) { files.append(path); continue }
                files += folderNames(path).filter(isJournalFile).map { path + "/" + $0 }
            }
        }
        return files.sorted()
    }

    private static func isJournalFile(_ name: String) -> Bool {
        name.hasSuffix(".journal") || name.hasSuffix(".journal~")
    }

    private static func folderNames(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The matches that select `hosts` (a disjunction: `_MACHINE_ID=` for a machine id of the files,
    /// `_HOSTNAME=` for a hostname), or none for all hosts.
    /// - Throws: a one-line ``CLIError`` for a name that is no host of the files.
    static func matches(
        forHosts hosts: [String], in reader: JournalReader, place: JournalPlace
    ) throws -> [[(String, String)]] {
        guard !hosts.isEmpty else { return [] }
        let machines = Set(try reader.uniqueValues(of: "_MACHINE_ID"))
        let hostnames = try reader.uniqueValues(of: "_HOSTNAME")
        let known = Set(hostnames)
        var group: [(String, String)] = []
        for host in hosts {
            if machines.contains(host) {
                group.append(("_MACHINE_ID", host))
            } else if known.contains(host) {
                group.append(("_HOSTNAME", host))
            } else {
                let listed = hostnames.prefix(5).joined(separator: ", ") + (hostnames.count > 5 ? ", …" : "")
                throw CLIError(.failed, "no host \(Echo.quoted(host)) in \(place.name) "
                    + "(\(hostnames.count) \(hostnames.count == 1 ? "host" : "hosts")\(hostnames.isEmpty ? "" : ": " + listed))")
            }
        }
        return [group]
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
    static func trust(place: JournalPlace) -> JournalTrust {
        let user: JournalTrust.PermissiondUser = place != .live ? .shownByItsEntries
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

    /// Only entries with one of `messageIDs` and, for each group of `conditions`, one of its
    /// field=value pairs, from `sinceUSec` on. The conditions come first in the match tree: a file
    /// none of whose entries meets them is passed over at its first lookup.
    private static func select(
        _ messageIDs: [String], and conditions: [[(String, String)]], sinceUSec: UInt64?, in reader: JournalReader
    ) throws(SystemdError) {
        reader.flushMatches()
        for group in conditions {
            for (field, value) in group {
                try reader.addMatch(field, value)
                try reader.addDisjunction()
            }
            try reader.addConjunction()
        }
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
