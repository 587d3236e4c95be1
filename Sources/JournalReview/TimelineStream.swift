import RelaunchContract

/// Builds the timeline while the journal is read, keeping what the incidents still open need rather
/// than every entry: the same incidents, in the same order, as ``TimelineBuilder/incidents(from:)``
/// over the whole journal.
///
/// The journal is read twice. The first pass reads only permissiond's entries ("permission changed"
/// and "app killed", two per incident) into a ``Plan``: when each change and kill happened, and
/// which units the kills name. The second pass reads every matched entry, in journal order, into
/// ``add(_:)``. Entries are joined in the order their events happened: an entry waits in a small
/// buffer until no later entry can come before it, which the plan tells for permissiond's entries
/// (stamped by journald after the kill they report, but carrying its time) and journal order tells
/// for the others. Entries about units that no kill names can never join an incident: the reader
/// asks ``admit(_:)`` first and skips them without building a record.
///
/// Both passes believe an entry only as ``JournalTrust`` says: permissiond's entries from its unit
/// and user, an app's from its registered unit, systemd's from PID 1. The first pass learns what
/// permissiond's entries show about its user before any is judged; the second counts what it leaves
/// out (``ignored``).
///
/// An entry journald holds out of time order (the clock stepped back) by more than the buffer
/// covers is joined where it was read, not before the entries already joined.
package struct TimelineStream: Sendable {
    /// What the first pass learns from permissiond's entries.
    package struct Plan: Sendable {
        /// Each entry's event time and journal time, and the app and unit it names, in journal order.
        fileprivate var entries: [Entry] = []
        /// The rules, learning permissiond's user from its entries.
        fileprivate var trust: JournalTrust

        fileprivate struct Entry: Sendable {
            var isChange: Bool
            /// Whether journald saw it come from permissiond's unit.
            var fromPermissiondUnit: Bool
            /// The sender's `_UID`, by position in ``Plan/senderValues`` (-1 when none).
            var uid: Int32
            /// The entry's `_MACHINE_ID`, by position in ``Plan/senderValues`` (-1 when none).
            var machine: Int32
            var eventTimeUSec: UInt64
            var realtimeUSec: UInt64
            var app: String
            var unit: String
        }

        /// Every `_UID` and `_MACHINE_ID` value the plan's entries carry, each once: the entries
        /// number them, which keeps them small (a plan holds two per incident of the whole journal).
        fileprivate var senderValues: [String] = []
        private var senderValueIndex: [String: Int32] = [:]

        private mutating func number(_ value: String?) -> Int32 {
            guard let value else { return -1 }
            if let known = senderValueIndex[value] { return known }
            let index = Int32(senderValues.count)
            senderValueIndex[value] = index
            senderValues.append(value)
            return index
        }

        /// What ``JournalTrust`` judges one of the plan's entries by, once the plan is complete; the
        /// entries keep it small, as a plan holds two per incident of the whole journal.
        fileprivate struct Sender: JournalTrustFields {
            let entry: Entry
            let senderValues: [String]

            func value(of field: JournalTrust.Field) -> String? {
                switch field {
                case .messageID: entry.isChange ? MessageID.permissionChanged.rawValue : MessageID.appKilled.rawValue
                case .systemdUnit: entry.fromPermissiondUnit ? JournalTrust.permissiondUnit : nil
                case .uid: entry.uid < 0 ? nil : senderValues[Int(entry.uid)]
                case .machineID: entry.machine < 0 ? nil : senderValues[Int(entry.machine)]
                case .unit, .appID, .pid, .command: nil
                }
            }
        }

        /// An empty plan that will believe entries as `trust` says.
        package init(trust: JournalTrust = JournalTrust()) {
            self.trust = trust
        }

        /// Notes `record` if it is one of permissiond's entries (by MESSAGE_ID; whether it counts is
        /// judged when the plan is complete); records must come in journal order.
        package mutating func add(_ record: JournalRecord) {
            guard TimelineStream.isDaemonEntry(record.messageID) else { return }
            trust.learn(record)
            let isChange = record.messageID == MessageID.permissionChanged.rawValue
            entries.append(Entry(isChange: isChange,
                                 fromPermissiondUnit: record.has(.systemdUnit, equalTo: JournalTrust.permissiondUnit),
                                 uid: number(record.value(of: .uid)), machine: number(record.value(of: .machineID)),
                                 eventTimeUSec: record.eventTimeUSec, realtimeUSec: record.realtimeUSec,
                                 app: record["APP_ID"], unit: isChange ? "" : record["UNIT"]))
        }

        /// How many of permissiond's entries the plan holds.
        package var count: Int { entries.count }
    }

    /// Whether an entry with `messageID` is one of permissiond's that the first pass reads.
    package static func isDaemonEntry(_ messageID: String?) -> Bool {
        messageID == MessageID.permissionChanged.rawValue || messageID == MessageID.appKilled.rawValue
    }

    /// The MESSAGE_IDs the first pass matches.
    package static var daemonMessageIDs: [String] {
        [MessageID.permissionChanged.rawValue, MessageID.appKilled.rawValue]
    }

    /// The journal fields the timeline reads; a record needs no others. Those ``JournalTrust`` judges
    /// by are among them (journald's `_SYSTEMD_UNIT`, `_UID`, `_PID`, `_COMM`, `_MACHINE_ID`).
    package static let fieldNames: [String] = [
        "MESSAGE_ID", "UNIT", "_SYSTEMD_UNIT", "INVOCATION_ID", "_SYSTEMD_INVOCATION_ID", "_PID",
        "_UID", "_COMM", "_MACHINE_ID", "_BOOT_ID", "_HOSTNAME",
        "APP_ID", "PERMISSION", "OLD_STATE", "NEW_STATE", "CALLER_UID", "KILL", "CHANGED_USEC",
        "SIGNAL", "KILLED_USEC", "KILLED_INVOCATION_ID", "EXIT_CODE", "EXIT_STATUS", "MESSAGE", "N_RESTARTS", "UNIT_RESULT",
        "REASON", "RESTORATION_PATH", "RESTORED_VIA", "RESTORED_COUNT", "PRESENTED_PATH",
        "DURATION_USEC", "LAUNCH_OUTCOME", "BUILD_NUMBER", TimelineBuilder.killedUnitKey,
        "TAKEN_OVER_PID", "TAKEOVER_PHASE", "TAKEOVER_GONE_USEC", "TAKEOVER_KILL_SENT_USEC", "LAUNCH_READY_USEC",
    ] + TimelineEvent.sceneFields

    /// The plan's entries' journal times, to check that the second pass meets the same entries.
    private let daemonRealtimes: [UInt64]
    /// The unit each change's kill names, by the change's position in the plan.
    private let killedUnitOfChange: [Int: String]
    /// The earliest event time of the plan's entries from each position on (one more: never).
    private let earliestDaemonEvent: [UInt64]
    /// Every unit a counted kill names.
    private let killedUnits: Set<String>
    /// The rules, with what the first pass learned.
    private let trust: JournalTrust
    /// The entries of the second pass left out by ``trust``, by reason.
    package private(set) var ignored: [JournalTrust.Reason: Int] = [:]

    /// Position in the plan of the next of permissiond's entries the second pass meets.
    private var nextDaemonEntry = 0
    /// Entries read but not joined yet, by event time then journal order; those before `head` are gone.
    private var waiting: [JournalRecord] = []
    private var head = 0
    private var builder = TimelineBuilder()

    /// Starts the second pass with what the first learned.
    package init(_ plan: consuming Plan) {
        var trust = plan.trust
        let senderValues = plan.senderValues
        // Taken out of the plan, so that leaving out what does not count copies nothing.
        var entries = plan.entries
        plan.entries = []
        entries.removeAll {
            trust.judge(Plan.Sender(entry: $0, senderValues: senderValues)) != .counts(.permissiond)
        }
        for entry in entries where !entry.isChange {
            trust.learnKilledUnit(entry.unit, app: entry.app)
        }
        self.trust = trust
        daemonRealtimes = entries.map(\.realtimeUSec)
        var pairing = KillPairing()
        var killedUnitOfChange: [Int: String] = [:]
        let inTimeOrder = entries.indices.sorted {
            (entries[$0].eventTimeUSec, $0) < (entries[$1].eventTimeUSec, $1)
        }
        for position in inTimeOrder {
            let entry = entries[position]
            let machine = entry.machine < 0 ? "" : senderValues[Int(entry.machine)]
            if let change = pairing.add(isChange: entry.isChange, machine: machine, app: entry.app, at: position) {
                killedUnitOfChange[change] = entry.unit
            }
        }
        self.killedUnitOfChange = killedUnitOfChange
        var earliest = [UInt64](repeating: .max, count: entries.count + 1)
        for position in entries.indices.reversed() {
            earliest[position] = min(entries[position].eventTimeUSec, earliest[position + 1])
        }
        earliestDaemonEvent = earliest
        killedUnits = Set(entries.filter { !$0.isChange }.map(\.unit))
    }

    /// Judges the next entry of the second pass by its trusted fields (counting it in ``ignored``
    /// when it is left out) and tells whether it must be added with ``add(_:)``: each of
    /// permissiond's entries that counts, and every other that counts and is about a unit some kill
    /// names (only those can join an incident).
    package mutating func admit(_ entry: some JournalTrustFields) -> Bool {
        switch trust.judge(entry) {
        case .ignored(let reason):
            ignored[reason, default: 0] += 1
            return false
        case .unrelated:
            return false
        case .counts(.permissiond):
            return true
        case .counts(let kind):
            // A counted entry always names its unit (judge counts systemd's only with UNIT=, an
            // app's only with _SYSTEMD_UNIT=); an empty name is in no kill.
            return killedUnits.contains(JournalTrust.unit(of: entry, kind: kind) ?? "")
        }
    }

    /// Adds the next entry of the second pass, in journal order, one ``admit(_:)`` let in.
    /// - Returns: false, without adding it, when `record` is one of permissiond's entries that the
    ///   first pass did not see (the journal grew in between): stop reading there, as a single read
    ///   that ended just before it would have.
    package mutating func add(_ record: JournalRecord) -> Bool {
        var record = record
        if Self.isDaemonEntry(record.messageID) {
            guard nextDaemonEntry < daemonRealtimes.count,
                  daemonRealtimes[nextDaemonEntry] == record.realtimeUSec
            else { return false }
            if record.messageID == MessageID.permissionChanged.rawValue {
                record.fields[TimelineBuilder.killedUnitKey] = killedUnitOfChange[nextDaemonEntry]
            }
            nextDaemonEntry += 1
        }
        let journalTime = record.realtimeUSec
        record.realtimeUSec = record.eventTimeUSec
        wait(record)
        // Later entries of systemd and the apps happened no earlier than this one was written; later
        // entries of permissiond's, no earlier than the plan says.
        join(upTo: min(journalTime, earliestDaemonEvent[nextDaemonEntry]))
        return true
    }

    /// The incidents that can no longer change, oldest first, and not handed over before.
    package mutating func takeFinished() -> [Incident] {
        builder.takeFinished()
    }

    /// Joins every entry still waiting and hands over every incident not handed over yet: the end of
    /// the journal.
    package mutating func finish() -> [Incident] {
        join(upTo: .max)
        return builder.takeAll()
    }

    /// Puts `record` after every waiting entry whose event happened no later (so journal order
    /// decides between entries of the same time).
    private mutating func wait(_ record: JournalRecord) {
        var index = waiting.endIndex
        while index > head, waiting[index - 1].realtimeUSec > record.realtimeUSec {
            index -= 1
        }
        waiting.insert(record, at: index)
    }

    /// Joins the waiting entries whose events happened at or before `timeUSec`.
    private mutating func join(upTo timeUSec: UInt64) {
        while head < waiting.endIndex, waiting[head].realtimeUSec <= timeUSec {
            builder.add(waiting[head])
            head += 1
        }
        if head == waiting.endIndex {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }
}
