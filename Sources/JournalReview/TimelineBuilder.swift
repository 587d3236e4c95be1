import RelaunchContract

/// Joins Relaunch's journal entries with systemd's own into incidents.
///
/// An incident starts at a "permission changed" entry. The kill entry names the unit; from then on
/// systemd's entries about that unit (process exit, restart scheduled, started) and the new
/// instance's own entries (discards, restored controllers, restoration finished, each scene session's
/// restoration, launched) are
/// joined to it by unit and invocation id, until the new instance is ready and has launched.
/// A later change for the same app on the same machine supersedes an open incident.
///
/// Every join is within one host: an entry joins an incident only if journald wrote both on the same
/// machine in the same boot (`_MACHINE_ID`, `_BOOT_ID`), so the entries of two hosts are never
/// joined, even when their units and invocation ids are equal (hosts cloned from one image, or one
/// journal exported twice).
///
/// An incident that is no longer open (its relaunch completed, or a later change of its app
/// superseded it) never changes again: ``takeFinished()`` hands such incidents over, oldest first,
/// so that a reader of a long journal need not keep them.
package struct TimelineBuilder: Sendable {
    /// The incidents built and not taken yet, oldest first; the first one is number `taken`.
    private var incidents: [Incident] = []
    /// How many incidents ``takeFinished()`` has handed over.
    private var taken = 0
    /// The number of the open incident of each app on each machine.
    private var open: [AppOnMachine: Int] = [:]
    /// The host (machine and boot) of each open incident, by number: entries join only their own.
    private var hostOfOpen: [Int: Host] = [:]
    /// The invocation that was running when each open incident's kill landed, once systemd saw it exit.
    private var exitedInvocation: [Int: String] = [:]
    /// The invocation each open incident's kill entry says it killed (`KILLED_INVOCATION_ID`): the
    /// relaunched instance's entries join by it when systemd's own entries are gone (a flood of the
    /// default journal rotates them away; permissiond's and the app's are in namespaces of their own).
    private var killedInvocation: [Int: String] = [:]
    /// The pid of the standby that took over from each open incident's killed process: a take-over
    /// keeps the unit's invocation, so the relaunched process's entries join by their `_PID`.
    private var takenOverBy: [Int: String] = [:]

    /// Creates an empty builder.
    package init() {}

    /// Builds the incidents found in `records`, which need not be sorted, from the entries `trust`
    /// believes.
    ///
    /// Records are ordered by when their event happened (``JournalRecord/eventTimeUSec``), and each
    /// change that killed learns its unit from the kill entry that follows it, so systemd's entries
    /// about the killed process are joined even when the kill entry reached the journal after them.
    package static func incidents(from records: [JournalRecord], trust: JournalTrust = JournalTrust()) -> [Incident] {
        build(from: records, trust: trust).incidents
    }

    /// The incidents found in `records` and the entries `trust` left out, by reason.
    static func build(
        from records: [JournalRecord], trust: JournalTrust
    ) -> (incidents: [Incident], ignored: [JournalTrust.Reason: Int]) {
        var trust = trust
        for record in records where TimelineStream.isDaemonEntry(record.messageID) {
            trust.learn(record)
        }
        for record in records where record.messageID == MessageID.appKilled.rawValue {
            if trust.judge(record) == .counts(.permissiond) { trust.learnKilledUnit(record["UNIT"], app: record["APP_ID"]) }
        }
        var ignored: [JournalTrust.Reason: Int] = [:]
        let believed = records.filter { record in
            switch trust.judge(record) {
            case .counts: return true
            case .ignored(let reason):
                ignored[reason, default: 0] += 1
                return false
            case .unrelated: return false
            }
        }
        var timed = believed.map { record in
            var record = record
            record.realtimeUSec = record.eventTimeUSec
            return record
        }
        // Sort by time, keeping the journal's own order for entries of the same microsecond.
        timed = timed.enumerated().sorted {
            ($0.element.realtimeUSec, $0.offset) < ($1.element.realtimeUSec, $1.offset)
        }.map(\.element)
        var pairing = KillPairing()
        for index in timed.indices {
            if let (change, unit) = pairing.add(timed[index], at: index) {
                timed[change].fields[Self.killedUnitKey] = unit
            }
        }
        var builder = TimelineBuilder()
        for record in timed {
            builder.add(record)
        }
        return (builder.incidents, ignored)
    }

    /// Where the builder finds, on a change's record, the unit its kill entry names.
    static let killedUnitKey = "_RELAUNCH_KILLED_UNIT"

    /// Adds one record that ``JournalTrust`` believes; records must be added in time order.
    package mutating func add(_ record: JournalRecord) {
        if record.messageID == MessageID.permissionChanged.rawValue {
            startIncident(record)
            return
        }
        if record.messageID == MessageID.appKilled.rawValue {
            let key = AppOnMachine(machine: record.machineID, app: record["APP_ID"])
            guard let number = open[key], hostOfOpen[number] == Host(record),
                  !incidents[number - taken].events.contains(where: { $0.kind == .killSent })
            else { return }
            incidents[number - taken].unit = record["UNIT"]
            if let killed = record.fields["KILLED_INVOCATION_ID"], !killed.isEmpty { killedInvocation[number] = killed }
            append(.killSent, record, to: number, keeping: ["UNIT", "SIGNAL", "PERMISSION"])
            return
        }
        guard let unit = record.unit, let number = openIncident(unit: unit, host: Host(record)) else { return }
        if record.isFromManager {
            addManagerRecord(record, to: number)
        } else {
            addAppRecord(record, to: number)
        }
    }

    /// The incidents built and not taken yet, oldest first.
    package var result: [Incident] { incidents }

    /// Hands over the oldest incidents that can no longer change (no longer open), in order; stops at
    /// the first one still open, so incidents come out in the order of their changes.
    package mutating func takeFinished() -> [Incident] {
        let count = incidents.indices.first { open.values.contains(taken + $0) } ?? incidents.count
        return take(count)
    }

    /// Hands over every incident not taken yet, open or not: the end of the journal.
    package mutating func takeAll() -> [Incident] {
        take(incidents.count)
    }

    private mutating func take(_ count: Int) -> [Incident] {
        guard count > 0 else { return [] }
        let finished = Array(incidents.prefix(count))
        incidents.removeFirst(count)
        taken += count
        return finished
    }

    /// The open incident about `unit` on `host`; if several are (two apps of one unit), the oldest.
    private func openIncident(unit: String, host: Host) -> Int? {
        var found: Int?
        for number in open.values where incidents[number - taken].unit == unit && hostOfOpen[number] == host {
            found = min(found ?? number, number)
        }
        return found
    }

    private mutating func startIncident(_ record: JournalRecord) {
        let app = record["APP_ID"]
        let incident = Incident(
            host: record["_HOSTNAME"],
            machineID: record.machineID,
            app: app,
            permission: record["PERMISSION"],
            oldState: record["OLD_STATE"],
            newState: record["NEW_STATE"],
            callerUID: record["CALLER_UID"],
            killDecided: record["KILL"] == "true",
            changedAtUSec: record.realtimeUSec,
            unit: record.fields[Self.killedUnitKey],
            reason: record.fields["CHANGE_REASON"],
            events: []
        )
        incidents.append(incident)
        let number = taken + incidents.count - 1
        if let superseded = open.updateValue(number, forKey: AppOnMachine(machine: record.machineID, app: app)) {
            exitedInvocation[superseded] = nil
            killedInvocation[superseded] = nil
            takenOverBy[superseded] = nil
            hostOfOpen[superseded] = nil
        }
        hostOfOpen[number] = Host(record)
        append(.permissionChanged, record, to: number,
               keeping: ["APP_ID", "PERMISSION", "OLD_STATE", "NEW_STATE", "CALLER_UID", "KILL", "CHANGE_REASON"])
    }

    private mutating func addManagerRecord(_ record: JournalRecord, to number: Int) {
        switch record.messageID.flatMap(ManagerMessageID.init(rawValue:)) {
        case .processExited where exitedInvocation[number] == nil:
            exitedInvocation[number] = record.invocationID ?? ""
            append(.processExited, record, to: number, keeping: ["EXIT_CODE", "EXIT_STATUS", "_PID", "MESSAGE"])
        case .restartScheduled where exitedInvocation[number] != nil:
            append(.restartScheduled, record, to: number, keeping: ["N_RESTARTS"])
        case .started where exitedInvocation[number] != nil:
            append(.ready, record, to: number, keeping: ["MESSAGE"])
            closeIfComplete(number)
        case .failed:
            append(.failed, record, to: number, keeping: ["UNIT_RESULT", "MESSAGE"])
        default:
            break
        }
    }

    private mutating func addAppRecord(_ record: JournalRecord, to number: Int) {
        // Only the instance started after the kill belongs to the relaunch: after the one systemd saw
        // exit, or else after the one permissiond says it killed.
        if record.messageID == MessageID.standbyTookOver.rawValue {
            addTakeOver(record, to: number)
            return
        }
        let takeOver = takenOverBy[number].map { $0 == record["_PID"] } ?? false
        guard takeOver || exitedInvocation[number].map({ record.invocationID != $0 })
                ?? killedInvocation[number].map({ record.invocationID != $0 }) ?? false
        else { return }
        if takeOver {
            addRelaunchedRecord(record, to: number)
            return
        }
        let events = incidents[number - taken].events
        if !events.contains(where: { $0.invocationID == record.invocationID && $0.kind != .ready }) {
            append(.processStarted, record, to: number, keeping: ["_PID"])
        }
        addRelaunchedRecord(record, to: number)
    }

    /// A standby's take-over of the killed instance's process: at "main" the killed process's end as
    /// the standby saw it and the take-over; at "ready" its READY=1. Only a take-over in the instance
    /// the kill named joins (the standby keeps the unit's invocation).
    private mutating func addTakeOver(_ record: JournalRecord, to number: Int) {
        guard let killed = killedInvocation[number] ?? exitedInvocation[number], record.invocationID == killed,
              let pid = record.fields["_PID"]
        else { return }
        switch record["TAKEOVER_PHASE"] {
        case "main" where takenOverBy[number] == nil:
            takenOverBy[number] = pid
            let gone = record.fields["TAKEOVER_GONE_USEC"].flatMap { UInt64($0) } ?? record.realtimeUSec
            append(.processExited, record, to: number, keeping: ["TAKEN_OVER_PID", "TAKEOVER_KILL_SENT_USEC"], at: gone)
            append(.tookOver, record, to: number, keeping: ["_PID", "TAKEN_OVER_PID"])
        case "ready" where takenOverBy[number] == pid:
            let ready = record.fields["LAUNCH_READY_USEC"].flatMap { UInt64($0) } ?? record.realtimeUSec
            append(.ready, record, to: number, keeping: ["MESSAGE"], at: ready)
            closeIfComplete(number)
        default:
            break
        }
    }

    /// One of the relaunched process's own entries.
    private mutating func addRelaunchedRecord(_ record: JournalRecord, to number: Int) {
        switch record.messageID.flatMap(MessageID.init(rawValue:)) {
        case .savedStateDiscarded:
            append(.discarded, record, to: number, keeping: ["REASON"])
        case .viewControllerRestored:
            append(.controllerRestored, record, to: number, keeping: ["RESTORATION_PATH", "RESTORED_VIA"])
        case .restorationFinished:
            append(.restorationFinished, record, to: number,
                   keeping: ["RESTORED_COUNT", "PRESENTED_PATH", "DURATION_USEC"])
        case .sceneSessionRestored:
            append(.sceneRestored, record, to: number, keeping: TimelineEvent.sceneFields)
        case .appLaunched:
            append(.launched, record, to: number, keeping: ["LAUNCH_OUTCOME", "BUILD_NUMBER"])
            closeIfComplete(number)
        default:
            break
        }
    }

    private mutating func closeIfComplete(_ number: Int) {
        let events = incidents[number - taken].events
        guard events.contains(where: { $0.kind == .ready }), events.contains(where: { $0.kind == .launched })
        else { return }
        open = open.filter { $0.value != number }
        exitedInvocation[number] = nil
        killedInvocation[number] = nil
        takenOverBy[number] = nil
        hostOfOpen[number] = nil
    }

    private mutating func append(
        _ kind: TimelineEvent.Kind, _ record: JournalRecord, to number: Int, keeping names: [String], at time: UInt64? = nil
    ) {
        var fields: [String: String] = [:]
        for name in names {
            if let value = record.fields[name] { fields[name] = value }
        }
        let index = number - taken
        let start = incidents[index].changedAtUSec
        let at = time ?? record.realtimeUSec
        incidents[index].events.append(TimelineEvent(
            kind: kind,
            atUSec: at,
            sinceChangeUSec: at >= start ? at - start : 0,
            invocationID: record.invocationID,
            fields: fields
        ))
    }
}
