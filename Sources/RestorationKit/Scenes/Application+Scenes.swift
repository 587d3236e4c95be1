/// The scene sessions and connected scenes of a scene-based app.
struct SceneTable {
    /// Whether a launch without saved sessions opens a first window.
    var supportsScenes = false
    /// The open sessions, in the order their windows were opened.
    var sessions: [SceneSession] = []
    /// The connected scenes, in the order they were connected.
    var scenes: [Scene] = []
}

/// Scenes: windows that are each restored from the activity they saved, in UIKit's order.
///
/// Deviations from UIKit, and why:
/// - The app delegate's `shouldSaveApplicationState` and `shouldRestoreApplicationState` gate the
///   scenes' saved activities too (UIKit hands activities over without asking): Relaunch keeps one
///   archive per app, with one build check and one restoring mark, so a scene-based app answers yes
///   to both. When the delegate declines an archive, its sessions still come back (UIKit keeps
///   sessions across launches) but without their activities.
/// - `openSessions` and `connectedScenes` are arrays in the order the windows were opened (UIKit's
///   are sets), and scenes are connected one after the other in that order, each through all of
///   connection, interaction-state restoration, foreground and active before the next one starts.
/// - Opening and closing windows are synchronous and return at once (UIKit's are requests).
extension Application {
    /// Whether the app is scene-based: a launch with no saved sessions then opens one window, as
    /// UIKit does for an app whose scene manifest declares scenes.
    public var supportsScenes: Bool {
        get { sceneTable.supportsScenes }
        set { sceneTable.supportsScenes = newValue }
    }

    /// The open sessions (one per window, connected or not), in the order they were opened.
    public var openSessions: [SceneSession] { sceneTable.sessions }

    /// The connected scenes, in the order they were connected.
    public var connectedScenes: [Scene] { sceneTable.scenes }

    /// The open session whose persistent identifier is `identifier`.
    public func sceneSession(withIdentifier identifier: String) -> SceneSession? {
        sceneTable.sessions.first { $0.persistentIdentifier == identifier }
    }

    /// Opens a new window: a new session, its scene connected and brought to the front (unless the app
    /// is launching or in the background, when it comes to the front with the app).
    ///
    /// - Parameters:
    ///   - userActivity: The activity the window is opened for; its delegate finds it in the
    ///     connection options' `userActivities`.
    ///   - role: The new session's role.
    /// - Returns: The new scene.
    @discardableResult
    public func requestSceneSessionActivation(
        userActivity: UserActivity? = nil, role: SceneSession.Role = .windowApplication
    ) -> Scene {
        let session = SceneSession(persistentIdentifier: SceneSession.makeIdentifier(), role: role)
        sceneTable.sessions.append(session)
        let scene = connect(session, options: SceneConnectionOptions(userActivities: userActivity.map { [$0] } ?? []))
        if state == .active { bringToFront(scene) }
        return scene
    }

    /// Closes a window: disconnects its scene, forgets its session and saved activity, and tells the
    /// app delegate (`ApplicationDelegate.application(_:didDiscardSceneSessions:)`).
    ///
    /// The next preservation no longer holds the session; preserve after closing a window (as after
    /// entering the background), so that the archive on disk drops it too and a relaunch does not
    /// bring it back. A session that is not open is ignored.
    public func requestSceneSessionDestruction(_ session: SceneSession) {
        guard let index = sceneTable.sessions.firstIndex(where: { $0 === session }) else { return }
        if let scene = session.scene { disconnect(scene) }
        sceneTable.sessions.remove(at: index)
        session.stateRestorationActivity = nil
        delegate?.application(self, didDiscardSceneSessions: [session])
    }

    // MARK: Launch and preservation

    /// At launch, after `applicationDidFinishLaunching`: makes a session for each one `archive`
    /// holds (with its activity when `restoring`), or a first one for a scene-based app without
    /// any, and connects and brings to the front each in turn.
    ///
    /// - Returns: One note per session whose saved activity was discarded, for the launch's report.
    func connectScenes(from archive: RestorationArchive?, restoring: Bool) -> [String] {
        var notes: [String] = []
        var restored: [SceneSession] = []
        for record in archive?.sceneSessions ?? [] where sceneSession(withIdentifier: record.identifier) == nil {
            let session = SceneSession(
                persistentIdentifier: record.identifier, role: record.role,
                stateRestorationActivity: restoring ? record.activity : nil)
            if restoring, let reason = record.discardReason {
                session.restorationDiscardReason = reason
                session.restorationDiscardDetail = record.discardDetail
                notes.append("scene session \(record.identifier): saved state discarded (\(reason)): "
                    + (record.discardDetail ?? "unreadable"))
            }
            restored.append(session)
        }
        sceneTable.sessions += restored
        if sceneTable.sessions.isEmpty, supportsScenes {
            sceneTable.sessions.append(SceneSession(persistentIdentifier: SceneSession.makeIdentifier(), role: .windowApplication))
        }
        for session in sceneTable.sessions where session.scene == nil {
            let fromArchive = restored.contains { $0 === session }
            let scene = connect(session, options: SceneConnectionOptions(), restoring: restoring && fromArchive)
            bringToFront(scene)
        }
        return notes
    }

    /// At the end of launch: scenes that did not extend restoration are done restoring.
    func sceneLaunchFinished() {
        for scene in sceneTable.scenes { scene.launchFinished() }
    }

    /// The sessions to save, each with its activity; a scene still in front is asked for it now.
    func archivedSceneSessions() -> [ArchivedSceneSession] {
        for scene in sceneTable.scenes where scene.activationState != .background {
            scene.session.stateRestorationActivity = scene.delegate?.stateRestorationActivity(for: scene)
        }
        return sceneTable.sessions.map {
            ArchivedSceneSession(identifier: $0.persistentIdentifier, role: $0.role, activity: $0.stateRestorationActivity)
        }
    }

    // MARK: The scenes' lifecycle

    /// Makes `session`'s scene from the app delegate's configuration and connects it:
    /// will-connect, then the interaction state from the session's activity if it has one.
    private func connect(_ session: SceneSession, options: SceneConnectionOptions, restoring: Bool = false) -> Scene {
        let configuration = delegate?.application(self, configurationForConnecting: session, options: options)
            ?? SceneConfiguration(name: nil, sessionRole: session.role)
        session.configuration = configuration
        let scene = Scene(session: session, application: self, restoring: restoring)
        scene.delegate = configuration.makeDelegate?()
        session.scene = scene
        sceneTable.scenes.append(scene)
        scene.delegate?.scene(scene, willConnectTo: session, options: options)
        if let activity = session.stateRestorationActivity {
            scene.delegate?.scene(scene, restoreInteractionStateWith: activity)
        }
        return scene
    }

    /// Will-enter-foreground, then did-become-active.
    func bringToFront(_ scene: Scene) {
        guard scene.activationState != .foregroundActive else { return }
        scene.delegate?.sceneWillEnterForeground(scene)
        scene.activationState = .foregroundInactive
        scene.activationState = .foregroundActive
        scene.delegate?.sceneDidBecomeActive(scene)
    }

    /// Will-resign-active, did-enter-background, then the activity to save with the session.
    func sendToBackground(_ scene: Scene) {
        guard scene.activationState == .foregroundActive || scene.activationState == .foregroundInactive else { return }
        if scene.activationState == .foregroundActive {
            scene.delegate?.sceneWillResignActive(scene)
            scene.activationState = .foregroundInactive
        }
        scene.delegate?.sceneDidEnterBackground(scene)
        scene.activationState = .background
        scene.session.stateRestorationActivity = scene.delegate?.stateRestorationActivity(for: scene)
    }

    /// Takes `scene` out of the front if needed, then disconnects it.
    private func disconnect(_ scene: Scene) {
        if scene.activationState != .background, scene.activationState != .unattached {
            if scene.activationState == .foregroundActive { scene.delegate?.sceneWillResignActive(scene) }
            scene.delegate?.sceneDidEnterBackground(scene)
        }
        scene.activationState = .unattached
        scene.delegate?.sceneDidDisconnect(scene)
        sceneTable.scenes.removeAll { $0 === scene }
        scene.session.scene = nil
        if scene.pendingStateRestorations > 0 {
            // A closed window cannot finish restoring: its extensions end with it.
            for _ in 0..<scene.pendingStateRestorations { scene.completeStateRestoration() }
        }
    }
}
