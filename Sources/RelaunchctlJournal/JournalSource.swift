import JournalReview
import RelaunchContract
import RelaunchctlCore
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Reads the timeline from a ``JournalPlace``, one host after another and an incident at a time.
///
/// The hosts are the files' `_MACHINE_ID` values (`sd_journal_query_unique`: the field indexes, not
/// the entries), or those `--host` names. Each host is read with the two passes of
/// ``TimelineStream`` on its own: permissiond's entries, then every matched entry, each pass's
/// MESSAGE_ID matches in conjunction with `_MACHINE_ID=` (with one host in the files the match is
/// left out), so the journal's index finds that host's entries and no other's, and a review of one
/// host of many reads only that host's. Of each entry only the fields the timeline reads are copied
/// (``JournalFieldPicker``), journald's trusted fields among them, and a record is built only for an
/// entry ``JournalTrust`` believes and that can join an incident.
enum JournalSource {
    /// The hosts to review, in order (by hostname, then machine id).
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
        if let fleet = try fleetSources(of: place) {
            return try fleetIncidents(fleet, place: place, sinceUSec: sinceUSec, hosts: hosts, begin: begin, take)
        }
        let reader: JournalReader
        do {
            reader = try open(place)
        } catch {
            throw CLIError(.failed, "cannot read \(place.name): \(error)")
        }
        do {
            let all = try reader.uniqueValues(of: "_MACHINE_ID")
            // With one machine in the files (or none named) no match is needed to read only its entries.
            let matchMachine = all.count > 1
            let selected = try machines(forHosts: hosts, all: all, in: reader, place: place)
            var picker = JournalFieldPicker(TimelineStream.fieldNames)
            let trust = trust(place: place)

            // Each host's name, from its first entry the timeline matches; a host with none is skipped.
            var hostnames: [String: String] = [:]
            for machine in selected {
                try select(TimelineReport.messageIDs, and: matchMachine ? [[("_MACHINE_ID", machine)]] : [],
                           sinceUSec: nil, in: reader)
                if try reader.next() { hostnames[machine] = try reader.field("_HOSTNAME") ?? "" }
            }
            let order = hostnames.keys.sorted { (hostnames[$0]!, $0) < (hostnames[$1]!, $1) }
            begin(Hosts(machines: order, hostnames: hostnames))

            var ignored: [JournalTrust.Reason: Int] = [:]
            for machine in order {
                let own = matchMachine ? [[("_MACHINE_ID", machine)]] : []
                let stream = try readHost(reader, own: own, trust: trust, sinceUSec: sinceUSec, picker: &picker,
                                          admit: { !matchMachine || $0.value(of: .machineID) == machine }, take)
                ignored.merge(stream, uniquingKeysWith: +)
            }
            return ignored
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.failed, "cannot read \(place.name): \(error)")
        }
    }

    /// One host's incidents from `reader`: its entries are those of `own` (field matches, as for
    /// ``select(_:and:sinceUSec:in:)``) that `admit` takes, read in the two passes of
    /// ``TimelineStream``, each incident given to `take` as soon as it can no longer change.
    /// - Returns: the entries left out by their trusted fields, by reason.
    ///   - inTimeOrder: the entries of several uploads in one file (a fleet's receiver): held and
    ///     ordered by time before they are joined, instead of joined as read.
    static func readHost(
        _ reader: JournalReader, own: [[(String, String)]], trust: JournalTrust, sinceUSec: UInt64?,
        picker: inout JournalFieldPicker, inTimeOrder: Bool = false, admit: (PickedEntry) -> Bool,
        _ take: (Incident) -> Void
    ) throws(SystemdError) -> [JournalTrust.Reason: Int] {
        var plan = TimelineStream.Plan(trust: trust)
        try select(TimelineStream.daemonMessageIDs, and: own, sinceUSec: sinceUSec, in: reader)
        var daemonHeld: [JournalRecord] = []
        while let realtime = try next(reader, sinceUSec: sinceUSec) {
            try reader.pick(&picker)
            guard admit(PickedEntry(picker: picker)) else { continue }
            let record = JournalRecord(realtimeUSec: realtime, fields: picker.fields)
            if inTimeOrder { daemonHeld.append(record) } else { plan.add(record) }
        }
        for record in Self.inTimeOrder(daemonHeld) { plan.add(record) }
        var stream = TimelineStream(consume plan)
        try select(TimelineReport.messageIDs, and: own, sinceUSec: sinceUSec, in: reader)
        var held: [JournalRecord] = []
        while let realtime = try next(reader, sinceUSec: sinceUSec) {
            try reader.pick(&picker)
            let entry = PickedEntry(picker: picker)
            guard admit(entry), stream.admit(entry) else { continue }
            let record = JournalRecord(realtimeUSec: realtime, fields: picker.fields)
            if inTimeOrder {
                held.append(record)
                continue
            }
            guard stream.add(record) else { break }
            for incident in stream.takeFinished() { take(incident) }
        }
        for record in Self.inTimeOrder(held) {
            guard stream.add(record) else { break }
            for incident in stream.takeFinished() { take(incident) }
        }
        for incident in stream.finish() { take(incident) }
        return stream.ignored
    }

    /// `records` ordered by the time journald stamped them, journal order deciding between equal
    /// times, each entry once. A host's file on the fleet's receiver holds what several uploaders
    /// sent (the default journal and each namespace's), in the order it arrived, not the order it
    /// happened; and an upload that failed after the receiver had written part of it is sent again
    /// whole, so an entry can be there twice (the same time to the microsecond and the same fields:
    /// the same entry). One host's entries are few enough to hold.
    static func inTimeOrder(_ records: [JournalRecord]) -> [JournalRecord] {
        let sorted = records.enumerated()
            .sorted { ($0.element.realtimeUSec, $0.offset) < ($1.element.realtimeUSec, $1.offset) }.map(\.element)
        var once: [JournalRecord] = []
        once.reserveCapacity(sorted.count)
        var sameTime: [JournalRecord] = []
        for record in sorted {
            if record.realtimeUSec != sameTime.first?.realtimeUSec { sameTime.removeAll(keepingCapacity: true) }
            guard !sameTime.contains(record) else { continue }
            sameTime.append(record)
            once.append(record)
        }
        return once
    }

    /// Opens the journal files of `place`.
    static func open(_ place: JournalPlace) throws(SystemdError) -> JournalReader {
        switch place {
        // permissiond and the apps log to journal namespaces of their own (LogNamespace=), PID 1 to
        // the default one: the timeline needs both.
        case .live: try JournalReader(flags: [.localOnly, .allNamespaces])
        case .directory(let path): try JournalReader(directory: path)
        case .files(let paths): try JournalReader(files: paths, source: place.name)
        case .merge: try JournalReader(files: JournalPlace.mergedFiles(), source: place.name)
        }
    }

    /// The machine ids `hosts` name (each a machine id of the files, or a hostname: the machines whose
    /// entries show it), in the order named; every machine of the files (`all`) when `hosts` is empty.
    /// - Throws: a one-line ``CLIError`` for a name that is no host of the files.
    static func machines(
        forHosts hosts: [String], all: [String], in reader: JournalReader, place: JournalPlace
    ) throws -> [String] {
        guard !hosts.isEmpty else { return all.isEmpty ? [""] : all }
        let machines = Set(all)
        let hostnames = try reader.uniqueValues(of: "_HOSTNAME")
        var chosen: [String] = []
        for host in hosts {
            if machines.contains(host) {
                chosen.append(host)
            } else if hostnames.contains(host) {
                try select(TimelineReport.messageIDs, and: [[("_HOSTNAME", host)]], sinceUSec: nil, in: reader)
                while try reader.next() {
                    if let machine = try reader.field("_MACHINE_ID") { chosen.append(machine) }
                }
            } else {
                let listed = hostnames.prefix(5).joined(separator: ", ") + (hostnames.count > 5 ? ", …" : "")
                throw CLIError(.failed, "no host \(Echo.quoted(host)) in \(place.name) "
                    + "(\(hostnames.count) \(hostnames.count == 1 ? "host" : "hosts")\(hostnames.isEmpty ? "" : ": " + listed))")
            }
        }
        var seen: Set<String> = []
        return chosen.filter { seen.insert($0).inserted }
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
    struct PickedEntry: JournalTrustFields {
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
    static func select(
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
    static func next(_ reader: JournalReader, sinceUSec: UInt64?) throws(SystemdError) -> UInt64? {
        while try reader.next() {
            let realtime = try reader.realtimeMicroseconds()
            if let sinceUSec, realtime < sinceUSec { continue }
            return realtime
        }
        return nil
    }
}
