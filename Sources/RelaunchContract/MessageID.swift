/// The journal MESSAGE_IDs of Relaunch's events, as the public contract lists them.
///
/// Every event is one journal entry carrying one of these ids; `relaunch.catalog` explains each.
package enum MessageID: String, Sendable, CaseIterable, Codable {
    /// An app finished launching (fields: LAUNCH_OUTCOME, BUILD_NUMBER).
    case appLaunched = "0c3ece682843457296ab0da296a09171"
    /// An app moved between active and background (fields: LIFECYCLE).
    case lifecycleChanged = "7cff30b26abb44549eb0f7570b7c2ef9"
    /// An app preserved its state (fields: ARCHIVE_BYTES, ARCHIVE_GENERATION, DURATION_USEC).
    case statePreserved = "21ad727465684cd29e7b9bc1c3d456a7"
    /// One view controller was restored (fields: RESTORATION_PATH, RESTORED_VIA).
    case viewControllerRestored = "48683d587f3b40cbb9f326d7ea1ba7ea"
    /// Restoration finished (fields: RESTORED_COUNT, PRESENTED_PATH, DURATION_USEC).
    case restorationFinished = "0c0151517edf47b1a988576b4b5e81e0"
    /// Saved state was discarded (fields: REASON).
    case savedStateDiscarded = "f90884042ed34e8e85a00a87182d6b03"
    /// A permission changed (fields: APP_ID, PERMISSION, OLD_STATE, NEW_STATE, CALLER_UID, KILL).
    case permissionChanged = "9b3f5994e16840eb93c15d94fb1674bd"
    /// An app's unit was killed for a permission change (fields: APP_ID, UNIT, PERMISSION, SIGNAL).
    case appKilled = "cec8a90c402d4067a74cf3669006da0e"
    /// One scene session of a scene-based app at launch, and how its window came back (fields:
    /// SCENE_SESSION, SCENE_ROLE, SCENE_OUTCOME `restored|discarded|fresh`, ACTIVITY_TYPE, REASON
    /// when discarded; never the activity's title, which the user typed).
    case sceneSessionRestored = "30d1b4de270d462393320fc19e1c6609"
    /// The app's standby took over from its SIGKILLed main process: it became the unit's main process
    /// (`MAINPID=`) having read no permission and no state (fields: TAKEN_OVER_PID, TAKEOVER_PHASE
    /// `main` at the take-over, `ready` after its READY=1; TAKEOVER_GONE_USEC, STANDBY_SINCE_USEC).
    case standbyTookOver = "9dd63ce5c27e487fb23db11f77862c4f"

    /// A short human name for the event, as the timeline prints it.
    package var summary: String {
        switch self {
        case .appLaunched: "app launched"
        case .lifecycleChanged: "lifecycle changed"
        case .statePreserved: "state preserved"
        case .viewControllerRestored: "view controller restored"
        case .restorationFinished: "restoration finished"
        case .savedStateDiscarded: "saved state discarded"
        case .permissionChanged: "permission changed"
        case .appKilled: "app killed for a permission change"
        case .sceneSessionRestored: "scene session restored"
        case .standbyTookOver: "standby took over"
        }
    }
}

/// The MESSAGE_IDs systemd itself writes about units, which the timeline and the scenarios join
/// with Relaunch's own.
package enum ManagerMessageID: String, Sendable, CaseIterable {
    /// "Main process exited, code=killed, status=9/KILL" (EXIT_CODE, EXIT_STATUS).
    case processExited = "98e322203f7a4ed290d09fe03c09fe15"
    /// "Scheduled restart job, restart counter is at N" (N_RESTARTS).
    case restartScheduled = "5eb03494b6584870a536b337290809b3"
    /// "Started …": for a Type=notify service, the moment READY=1 arrived.
    case started = "39f53479d3a045ac8e11786248231fbf"
    /// "… Failed with result 'x'" (UNIT_RESULT).
    case failed = "d9b373ed55a64feb8242e02dbe79a49c"
}
