
/// One permission change and everything that followed from it, in order.
package struct Incident: Sendable, Equatable, Codable {
    /// The host the change happened on: its hostname as journald wrote it (`_HOSTNAME` of the change's
    /// entry), or an empty string when the entry has none.
    package var host: String = ""
    /// The machine the change happened on (`_MACHINE_ID` of the change's entry), or an empty string.
    package var machineID: String = ""
    /// The app whose permission changed.
    package var app: String
    /// The permission that changed.
    package var permission: String
    /// The state before the change.
    package var oldState: String
    /// The state after the change.
    package var newState: String
    /// The uid of the caller that made the change.
    package var callerUID: String
    /// Whether the permission daemon decided to kill the app.
    package var killDecided: Bool
    /// When the change was committed, µs since the epoch.
    package var changedAtUSec: UInt64
    /// The unit that was killed, if any.
    package var unit: String?
    /// Why permissiond made the change itself (`one-time grant expired`), nil for a caller's change.
    package var reason: String? = nil
    /// Everything that followed, in time order, the change itself first.
    package var events: [TimelineEvent]

    /// How the relaunched app came back: `restored`, `fresh`, `discarded`, or nil if it did not.
    package var launchOutcome: String? {
        events.last { $0.kind == .launched }?.fields["LAUNCH_OUTCOME"]
    }

    /// Microseconds from systemd seeing the killed process exit (or the standby seeing it gone) to the
    /// new instance's READY.
    package var relaunchUSec: UInt64? {
        guard let exited = events.first(where: { $0.kind == .processExited }),
              let ready = events.first(where: { $0.kind == .ready && $0.atUSec >= exited.atUSec })
        else { return nil }
        return ready.atUSec - exited.atUSec
    }

    /// The relaunched app's scene sessions, one entry each (a scene-based app's), in the order it logged them.
    package var scenes: [TimelineEvent] {
        events.filter { $0.kind == .sceneRestored }
    }

    /// The discard reasons logged by the relaunched app.
    package var discardReasons: [String] {
        events.filter { $0.kind == .discarded }.map { $0["REASON"] }
    }
}

/// One step of an incident's timeline.
package struct TimelineEvent: Sendable, Equatable, Codable {
    /// What kind of step this is.
    package enum Kind: String, Sendable, Codable {
        case permissionChanged = "permission-changed"
        case killSent = "kill-sent"
        case processExited = "process-exited"
        case restartScheduled = "restart-scheduled"
        case processStarted = "process-started"
        /// The app's standby became the unit's main process in place of the killed one (a relaunch
        /// without systemd's restart: its `processExited` is the standby seeing the killed one gone).
        case tookOver = "took-over"
        case discarded
        case controllerRestored = "controller-restored"
        case restorationFinished = "restoration-finished"
        /// One scene session of the relaunched app and how it came back (SCENE_OUTCOME).
        case sceneRestored = "scene-restored"
        case launched
        case ready
        case failed
    }

    /// The step's kind.
    package var kind: Kind
    /// When it happened, µs since the epoch.
    package var atUSec: UInt64
    /// Microseconds since the permission change.
    package var sinceChangeUSec: UInt64
    /// The invocation it belongs to, when known.
    package var invocationID: String?
    /// The journal fields that describe it (a selection, not the whole entry).
    package var fields: [String: String]

    /// The value of a field, or an empty string.
    package subscript(name: String) -> String { fields[name] ?? "" }
}

extension TimelineEvent {
    /// The fields a ``Kind/sceneRestored`` step keeps from its `scene session restored` entry.
    package static let sceneFields = [
        "SCENE_SESSION", "SCENE_ROLE", "SCENE_OUTCOME", "ACTIVITY_TYPE", "REASON",
    ]
}
