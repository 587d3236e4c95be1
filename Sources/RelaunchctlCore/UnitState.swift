package import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// What systemd says about a unit right now, from its D-Bus API (the Systemd layer's `unitStatus`).
package struct UnitState {
    package var invocationID: String
    package var mainPID: String

    /// Reads the unit's properties; a unit systemd has not loaded reads as not running.
    package static func read(_ unit: String) throws(CLIError) -> UnitState {
        let manager = SystemdManager(connection: try systemBus())
        do {
            guard let status = try manager.unitStatus(unit) else { return UnitState(invocationID: "", mainPID: "0") }
            return UnitState(invocationID: status.invocationID, mainPID: String(status.mainPID))
        } catch {
            throw cliError(error, talkingTo: "systemd", hint: "is systemd running here? In the sandbox, use scripts/sandbox exec -- relaunchctl ...")
        }
    }

    /// Whether `pid` names a live process (not a zombie waiting to be reaped).
    package static func isAlive(pid: String) -> Bool {
        guard let number = Int32(pid), number > 0, let file = fopen("/proc/\(number)/stat", "r") else { return false }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = fgets(&buffer, Int32(buffer.count), file)  // a failed read leaves it empty: no state, not alive
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let state = processState(statLine: line)
        return state != nil && state != "Z" && state != "X"
    }

    /// The state letter of a `/proc/PID/stat` line: the first field after the ")" that closes the
    /// command name (which may itself hold ")" and spaces); nil when there is none.
    package static func processState(statLine line: String) -> Character? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(after: close)...].drop { $0 == " " }.first
    }
}

/// Reads journal entries through sd-journal (the Systemd layer), for scenario expectations: each one
/// looks only after a cursor taken before the steps it follows, so an entry an earlier step caused
/// cannot stand in for one.
package enum JournalQuery {
    /// The cursor of the journal's last entry now (nil for an empty journal): entries after it are new.
    package static func tailCursor() throws(CLIError) -> String? {
        do throws(SystemdError) {
            let reader = try JournalReader(flags: [.localOnly, .allNamespaces])
            try reader.seekTail()
            guard try reader.previous() else { return nil }
            return try reader.cursor()
        } catch {
            throw .failed("cannot read the journal: \(error)")
        }
    }

    /// How many entries after `cursor` (all, for nil) match every FIELD=VALUE in `matches`, stopping
    /// at the entry with `stopField`=`stopValue` when given (a marker: only entries before it count);
    /// `stopSeen` says whether that entry was reached.
    package static func count(
        matches: [String], afterCursor cursor: String?, stopAt stop: (field: String, value: String)? = nil
    ) throws(CLIError) -> (count: Int, stopSeen: Bool) {
        do throws(SystemdError) {
            // No sd-journal matches: with a cursor, systemd 252 can skip entries that match (see
            // Tests/SandboxCheckTests/PermissiondSupport.swift); the fields are compared here instead.
            let reader = try JournalReader(flags: [.localOnly, .allNamespaces])
            if let cursor {
                try reader.seek(cursor: cursor)
                // The seek lands on the cursor's entry (or the closest one): that one is not "after".
                if try reader.next(), try !reader.isAt(cursor: cursor) { _ = try reader.previous() }
            } else {
                try reader.seekHead()
            }
            return try count(in: reader, matching: fieldMatches(matches), stopAt: stop)
        } catch {
            throw .failed("cannot read the journal: \(error)")
        }
    }

    /// FIELD=VALUE strings as pairs (one without "=" is left out; the value may hold "=").
    package static func fieldMatches(_ matches: [String]) -> [(field: String, value: String)] {
        matches.compactMap { match in
            guard let equals = match.firstIndex(of: "=") else { return nil }
            return (String(match[..<equals]), String(match[match.index(after: equals)...]))
        }
    }

    /// Counts the entries from where `entries` stands that have every field of `wanted`, stopping at
    /// `stop`'s marker (not counted); says whether it stopped there.
    ///
    /// The marker is one entry in each journal it was written to (``writeMarker(_:)``; its
    /// ``markerJournalsField`` says how many): the default journal and each namespace's. Each journald
    /// keeps its own order, not the others', so an entry counts while the marker of its own journal
    /// (`_NAMESPACE`, none for the default one) has not been passed, and the count stops once every
    /// journal's marker has.
    package static func count(
        in entries: some JournalEntries, matching wanted: [(field: String, value: String)],
        stopAt stop: (field: String, value: String)?
    ) throws(SystemdError) -> (count: Int, stopSeen: Bool) {
        var count = 0
        var passed: Set<String> = []
        while try entries.next() {
            let journal = try entries.field("_NAMESPACE") ?? ""
            if let stop, try entries.field(stop.field) == stop.value {
                passed.insert(journal)
                let journals = try entries.field(markerJournalsField).flatMap { Int($0) } ?? 1
                if passed.count >= journals { return (count, true) }
                continue
            }
            guard !passed.contains(journal) else { continue }
            var all = true
            for (name, value) in wanted where try entries.field(name) != value {
                all = false
                break
            }
            if all { count += 1 }
        }
        return (count, false)
    }

    /// The marker's field that says in how many journals it was written.
    package static let markerJournalsField = "RELAUNCH_SCENARIO_MARKER_JOURNALS"

    /// Writes a marker entry of the runner's own (`RELAUNCH_SCENARIO_MARKER`=a fresh value) to the
    /// journal and returns its field and value. journald takes native entries in the order they were
    /// sent, so once the marker can be read, every entry sent before it (by a daemon, before it answered
    /// the call the runner made) can be read too. permissiond and the apps log to journal namespaces of
    /// their own (`LogNamespace=`), each with its own journald and order: the marker goes to the default
    /// journal and to every namespace listening now (root may write to each), and says how many.
    package static func writeMarker(_ what: String) -> (field: String, value: String) {
        let value = "\(getpid())-\(realtimeMicroseconds())"
        let namespaces = getuid() == 0 ? JournalSink.listeningNamespaces() : []
        let fields = [
            JournalField("MESSAGE", "relaunchctl scenario: marker after \(what)"),
            JournalField("RELAUNCH_SCENARIO_MARKER", value),
            JournalField(markerJournalsField, String(namespaces.count + 1)),
            JournalField("SYSLOG_IDENTIFIER", "relaunchctl"),
        ]
        JournalSink.shared.write(fields, fallbackLine: "relaunchctl scenario: marker \(value)")
        for namespace in namespaces {
            JournalSink(namespace: namespace).write(fields, fallbackLine: "relaunchctl scenario: marker \(value) (\(namespace))")
        }
        return ("RELAUNCH_SCENARIO_MARKER", value)
    }
}

/// What ``JournalQuery/count(in:matching:stopAt:)`` needs of a journal: move to the next entry,
/// read a field of the entry it stands on.
package protocol JournalEntries {
    func next() throws(SystemdError) -> Bool
    func field(_ name: String) throws(SystemdError) -> String?
}

extension JournalReader: JournalEntries {}

/// CLOCK_REALTIME in microseconds since the Unix epoch.
package func realtimeMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
}
