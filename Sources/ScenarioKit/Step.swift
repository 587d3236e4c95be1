package import RelaunchContract

/// One step of a permission-toggle scenario.
///
/// Scenario files are plain text, one step per line; `Scenario.parse` documents the syntax.
package enum Step: Sendable, Equatable {
    /// Drive this registered app from now on (`app APP`).
    case app(String)
    /// Run permissiond with this kill policy from now on (restarts the daemon).
    case policy(KillPolicy)
    /// Run permissiond with one-time grants expiring after this many seconds in the background
    /// (`one-time-delay SECONDS`; restarts the daemon).
    case oneTimeDelay(String)
    /// Set one of the app's permissions, as `relaunchctl permission set` does.
    case setPermission(Permission, PermissionState)
    /// Reset one permission, or all of the app's when nil.
    case resetPermissions(Permission?)
    /// Tap an element on the app's screen.
    case tap(String)
    /// Type text into a field of the app.
    case type(field: String, text: String)
    /// Send the app to the background (it preserves its state).
    case background
    /// Bring the app to the foreground.
    case foreground
    /// Quit the app; `force` is the user's force quit, which discards saved state.
    case quit(force: Bool)
    /// Wait until the running instance has finished launching.
    case waitReady
    /// Print the app's screen, for people watching a scenario (`scripts/demo --app`); checks nothing.
    case screen
    /// Restart the app's unit (a clean stop, then a start) and wait until it is ready.
    case restartApp
    /// Stop the app's unit.
    case stopApp
    /// Start the app's unit and wait until it is ready.
    case startApp
    /// SIGKILL the app's main process through systemd, as a crash would.
    case killApp
    /// The previous permission step killed the app: a new instance runs and the journal has our
    /// kill entry and systemd's exit entry with signal KILL.
    case expectKill
    /// The previous permission step did not kill the app: the same instance still runs.
    case expectNoKill
    /// A key path of `relaunchctl app state --json` has this value (`null` for null).
    case expectState(path: String, value: String)
    /// The journal has (or, negated, lacks) an entry of this event with these fields, logged after the
    /// steps this expectation follows began: the run of acting steps since the previous expectation
    /// (`wait-ready` and `screen` only look). Absence is proven up to a marker the runner logs.
    case expectJournal(JournalEvent, fields: [String: String], present: Bool)
    /// A property of the app's unit, as `systemctl show` prints it, has this value.
    case expectUnit(property: String, value: String)
    /// Run the app as another build from now on (nil: its own build again).
    case setBuild(String?)
    /// Set an environment variable of the app's unit from its next start (an empty value unsets it).
    case setEnvironment(name: String, value: String)
    /// Damage the saved archive on disk (the app must be stopped, so no copy lives in the fd store).
    case corruptArchive
    /// Arm a test-only hook in the running app (`hang`, `crash-next-restore`).
    case testHook(String)
    /// Repeat a step N times.
    indirect case `repeat`(Int, Step)
    /// Open a window of a scene-based app (`scene open`).
    case openScene
    /// Close the Nth open window, from 1 in the order they were opened (`scene close N`).
    case closeScene(Int)
    /// Aim a `tap`, `type` or `screen` at the Nth open window (`scene N STEP`): session ids are
    /// random, so scenarios name windows by their place, which a relaunch keeps.
    indirect case inScene(Int, Step)
}

extension Step {
    /// Whether the step checks something (`expect …`), rather than acting or only looking.
    package var isExpectation: Bool {
        switch self {
        case .expectKill, .expectNoKill, .expectState, .expectJournal, .expectUnit: true
        case .repeat(_, let inner): inner.isExpectation
        default: false
        }
    }

    /// Whether the step may cause journal entries: not an expectation, and not a step that only
    /// looks (`wait-ready`, `screen`).
    package var acts: Bool {
        switch self {
        case .waitReady, .screen: false
        case .repeat(_, let inner), .inScene(_, let inner): inner.acts
        default: !isExpectation
        }
    }
}

/// The journal events a scenario can expect: Relaunch's own and systemd's unit entries.
package enum JournalEvent: String, Sendable, CaseIterable, Equatable {
    case appLaunched = "app-launched"
    case lifecycleChanged = "lifecycle-changed"
    case statePreserved = "state-preserved"
    case viewControllerRestored = "view-controller-restored"
    case restorationFinished = "restoration-finished"
    case savedStateDiscarded = "saved-state-discarded"
    /// One scene session of a scene-based app at launch (SCENE_SESSION, SCENE_OUTCOME, REASON…).
    case sceneSessionRestored = "scene-session-restored"
    case permissionChanged = "permission-changed"
    case appKilled = "app-killed"
    /// systemd: the unit's process exited.
    case unitExited = "unit-exited"
    /// systemd: a restart of the unit was scheduled.
    case unitRestartScheduled = "unit-restart-scheduled"
    /// systemd: the unit started (for a notify service: READY=1 arrived).
    case unitStarted = "unit-started"
    /// systemd: the unit failed.
    case unitFailed = "unit-failed"

    /// The MESSAGE_ID of the event.
    package var messageID: String {
        switch self {
        case .appLaunched: MessageID.appLaunched.rawValue
        case .lifecycleChanged: MessageID.lifecycleChanged.rawValue
        case .statePreserved: MessageID.statePreserved.rawValue
        case .viewControllerRestored: MessageID.viewControllerRestored.rawValue
        case .restorationFinished: MessageID.restorationFinished.rawValue
        case .savedStateDiscarded: MessageID.savedStateDiscarded.rawValue
        case .sceneSessionRestored: MessageID.sceneSessionRestored.rawValue
        case .permissionChanged: MessageID.permissionChanged.rawValue
        case .appKilled: MessageID.appKilled.rawValue
        case .unitExited: ManagerMessageID.processExited.rawValue
        case .unitRestartScheduled: ManagerMessageID.restartScheduled.rawValue
        case .unitStarted: ManagerMessageID.started.rawValue
        case .unitFailed: ManagerMessageID.failed.rawValue
        }
    }

    /// Whether systemd writes the entry (matched by `UNIT=`) rather than our programs.
    package var isManagerEvent: Bool { rawValue.hasPrefix("unit-") }
}

extension Step {
    /// How many steps this one plays: a repeat's count times its step's, else 1 (at most `Int.max`).
    package var expandedCount: Int {
        guard case .repeat(let count, let inner) = self else { return 1 }
        let (product, overflow) = count.multipliedReportingOverflow(by: inner.expandedCount)
        return overflow ? .max : product
    }
}
