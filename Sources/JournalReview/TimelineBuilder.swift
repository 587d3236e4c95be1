import RelaunchContract

/// Joins Relaunch's journal entries with systemd's own into incidents.
///
/// An incident starts at a "permission changed" entry. The kill entry names the unit; from then on
/// systemd's entries about that unit (process exit, restart scheduled, started) and the new
/// instance's own entries (discards, restored controllers, restoration finished, launched) are
/// joined to it by unit and invocation id, until the new instance is ready and has launched.
/// A later change for the same app supersedes an open incident.
public struct TimelineBuilder: Sendable {
    private var incidents: [Incident] = []
    /// Index in `incidents` of the open incident of each app.
    private var open: [String: Int] = [:]
    /// The invocation that was running when each open incident's kill landed, once systemd saw it exit.
    private var exitedInvocation: [Int: String] = [:]

    /// Creates an empty builder.
    public init() {}

    /// Builds the incidents found in `records`, which need not be sorted.
    ///
    /// Records are ordered by when their event happened (``JournalRecord/eventTimeUSec``), and each
    /// change that killed learns its unit from the kill entry that follows it, so systemd's entries
    /// about the killed process are joined even when the kill entry reached the journal after them.
    public static func incidents(from records: [JournalRecord]) -> [Incident] {
        var timed = records.map { record in
            var record = record
            record.realtimeUSec = record.eventTimeUSec
            return record
        }
        // Sort by time, keeping the journal's own order for entries of the same microsecond.
        timed = timed.enumerated().sorted {
            ($0.element.realtimeUSec, $0.offset) < ($1.element.realtimeUSec, $1.offset)
        }.map(\.element)
        var changeOfApp: [String: Int] = [:]
        for index in timed.indices {
            let record = timed[index]
            if record.messageID == MessageID.permissionChanged.rawValue {
                changeOfApp[record["APP_ID"]] = index
            } else if record.messageID == MessageID.appKilled.rawValue,
                      let change = changeOfApp.removeValue(forKey: record["APP_ID"]) {
                timed[change].fields[Self.killedUnitKey] = record["UNIT"]
            }
        }
        var builder = TimelineBuilder()
        for record in timed {
            builder.add(record)
        }
        return builder.incidents
    }

    /// Where `incidents(from:)` notes, on a change's record, the unit its kill entry names.
    static let killedUnitKey = "_RELAUNCH_KILLED_UNIT"

    /// Adds one record; records must be added in time order.
    public mutating func add(_ record: JournalRecord) {
        if record.messageID == MessageID.permissionChanged.rawValue {
            startIncident(record)
            return
        }
        if record.messageID == MessageID.appKilled.rawValue {
            let app = record["APP_ID"]
            guard let index = open[app], !incidents[index].events.contains(where: { $0.kind == .killSent })
            else { return }
            incidents[index].unit = record["UNIT"]
            append(.killSent, record, to: index, keeping: ["UNIT", "SIGNAL", "PERMISSION"])
            return
        }
        guard let unit = record.unit,
              let index = open.values.first(where: { incidents[$0].unit == unit })
        else { return }
        if record.isFromManager {
            addManagerRecord(record, to: index)
        } else {
            addAppRecord(record, to: index)
        }
    }

    /// The incidents built so far.
    public var result: [Incident] { incidents }

    private mutating func startIncident(_ record: JournalRecord) {
        let app = record["APP_ID"]
        let incident = Incident(
            app: app,
            permission: record["PERMISSION"],
            oldState: record["OLD_STATE"],
            newState: record["NEW_STATE"],
            callerUID: record["CALLER_UID"],
            killDecided: record["KILL"] == "true",
            changedAtUSec: record.realtimeUSec,
            unit: record.fields[Self.killedUnitKey],
            events: []
        )
        incidents.append(incident)
        let index = incidents.count - 1
        open[app] = index
        append(.permissionChanged, record, to: index,
               keeping: ["APP_ID", "PERMISSION", "OLD_STATE", "NEW_STATE", "CALLER_UID", "KILL"])
    }

    private mutating func addManagerRecord(_ record: JournalRecord, to index: Int) {
        switch record.messageID.flatMap(ManagerMessageID.init(rawValue:)) {
        case .processExited where exitedInvocation[index] == nil:
            exitedInvocation[index] = record.invocationID ?? ""
            append(.processExited, record, to: index, keeping: ["EXIT_CODE", "EXIT_STATUS", "_PID", "MESSAGE"])
        case .restartScheduled where exitedInvocation[index] != nil:
            append(.restartScheduled, record, to: index, keeping: ["N_RESTARTS"])
        case .started where exitedInvocation[index] != nil:
            append(.ready, record, to: index, keeping: ["MESSAGE"])
            closeIfComplete(index)
        case .failed:
            append(.failed, record, to: index, keeping: ["UNIT_RESULT", "MESSAGE"])
        default:
            break
        }
    }

    private mutating func addAppRecord(_ record: JournalRecord, to index: Int) {
        // Only the instance started after the kill belongs to the relaunch.
        guard let exited = exitedInvocation[index], record.invocationID != exited else { return }
        if !incidents[index].events.contains(where: { $0.invocationID == record.invocationID && $0.kind != .ready }) {
            append(.processStarted, record, to: index, keeping: ["_PID"])
        }
        switch record.messageID.flatMap(MessageID.init(rawValue:)) {
        case .savedStateDiscarded:
            append(.discarded, record, to: index, keeping: ["REASON"])
        case .viewControllerRestored:
            append(.controllerRestored, record, to: index, keeping: ["RESTORATION_PATH", "RESTORED_VIA"])
        case .restorationFinished:
            append(.restorationFinished, record, to: index,
                   keeping: ["RESTORED_COUNT", "PRESENTED_PATH", "DURATION_USEC"])
        case .appLaunched:
            append(.launched, record, to: index, keeping: ["LAUNCH_OUTCOME", "BUILD_NUMBER"])
            closeIfComplete(index)
        default:
            break
        }
    }

    private mutating func closeIfComplete(_ index: Int) {
        let kinds = Set(incidents[index].events.map(\.kind))
        guard kinds.contains(.ready), kinds.contains(.launched) else { return }
        open = open.filter { $0.value != index }
    }

    private mutating func append(
        _ kind: TimelineEvent.Kind, _ record: JournalRecord, to index: Int, keeping names: [String]
    ) {
        var fields: [String: String] = [:]
        for name in names {
            if let value = record.fields[name] { fields[name] = value }
        }
        let start = incidents[index].changedAtUSec
        incidents[index].events.append(TimelineEvent(
            kind: kind,
            atUSec: record.realtimeUSec,
            sinceChangeUSec: record.realtimeUSec >= start ? record.realtimeUSec - start : 0,
            invocationID: record.invocationID,
            fields: fields
        ))
    }
}
