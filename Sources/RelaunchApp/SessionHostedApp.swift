public import RestorationKit

/// A `HostableApp` whose launch, preservation, lifecycle and quits are those of its
/// `RestorationSession`. Conforming gives an app these members; it writes only the ones it extends
/// (a launch or foreground that resumes a step once permissions are known).
public protocol SessionHostedApp: HostableApp {
    /// The session that launches, restores and preserves the app.
    var session: RestorationSession { get }
}

extension SessionHostedApp {
    /// Where the app is in its life: its application's state.
    public var lifecycle: Application.LifecycleState { session.application.state }

    /// The open scene sessions' persistent identifiers, in the order their windows were opened.
    public var openSceneSessions: [String] { session.application.openSessions.map(\.persistentIdentifier) }

    /// Launches through the session: restores the newest readable candidate (restoring mark set
    /// before, cleared after) or launches fresh, and reports what happened.
    @discardableResult
    public func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        session.launch(candidates: candidates, restoringMark: restoringMark)
    }

    /// Preserves the current state as archive bytes.
    /// - Throws: `PreservationError` when two controllers share a path or the archive is over the hard limit.
    public func preserve() throws(PreservationError) -> Preservation { try session.preserve() }

    /// Sends the app to the background; the host then calls `preserve()`. Nothing happens if it is not active.
    @discardableResult
    public func background() -> [AppEffect] { session.enterBackground() }

    /// Brings the app back to the foreground; nothing happens if it is not in the background.
    @discardableResult
    public func foreground() -> [AppEffect] { session.enterForeground() ?? [] }

    /// A normal quit: the app goes to the background (preserving its state) and the process exits.
    public func quit() -> [AppEffect] { background() + [.terminate] }

    /// The user's force quit: saved state is discarded (`force-quit`), the app's data stays, the process exits.
    public func forceQuit() -> [AppEffect] { RestorationSession.forceQuitEffects() }
}
