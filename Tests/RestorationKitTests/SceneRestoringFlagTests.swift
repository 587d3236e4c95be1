import RestorationKit
import Testing

/// Which scenes count as restoring: only a scene connected for a session the launch restored, and
/// only until the launch ends; a window opened later, or a session made fresh, never does.
@Suite("Scenes that restore")
struct SceneRestoringFlagTests {
    /// Logs, at each connection, whether the scene was restoring then.
    final class FlagDelegate: SceneDelegate {
        let log: CallLog
        init(log: CallLog) { self.log = log }
        func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
            log.append("willConnect restoring=\(scene.isRestoringState) activity=\(session.stateRestorationActivity != nil)")
        }
        func stateRestorationActivity(for scene: Scene) -> UserActivity? {
            UserActivity(activityType: "org.relaunch.test", title: "t", userInfo: [:], targetContentIdentifier: nil)
        }
    }

    /// A scene-based app whose scenes get a `FlagDelegate`, and what its delegates logged at connection.
    private func app(restores: Bool = true) -> (Application, connections: () -> [String]) {
        let log = CallLog()
        let delegate = SceneAppDelegate(log: log)
        delegate.restores = restores
        delegate.makeSceneDelegate = { FlagDelegate(log: $0) }
        let application = Application(buildVersion: "1", delegate: delegate)
        application.supportsScenes = true
        return (application, { log.entries.filter { $0.hasPrefix("willConnect") } })
    }

    @Test("a window opened after launch is not restoring and cannot extend restoration")
    func openedLater() {
        let (application, connections) = app()
        application.launch(restoringFrom: nil)
        let scene = application.requestSceneSessionActivation()
        #expect(!scene.isRestoringState)
        scene.extendStateRestoration()
        #expect(scene.pendingStateRestorations == 0)
        #expect(connections() == ["willConnect restoring=false activity=false", "willConnect restoring=false activity=false"])
    }

    @Test("a restored session's scene restores during the launch; a declined archive's sessions do not")
    func restoredOrDeclined() throws {
        let (before, _) = app()
        before.launch(restoringFrom: nil)
        before.enterBackground()
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))

        let (restoring, restoringConnections) = app()
        restoring.launch(restoringFrom: archive)
        #expect(restoringConnections() == ["willConnect restoring=true activity=true"])
        #expect(restoring.connectedScenes.allSatisfy { !$0.isRestoringState }, "the launch has ended")

        let (declining, decliningConnections) = app(restores: false)
        declining.launch(restoringFrom: archive)
        #expect(decliningConnections() == ["willConnect restoring=false activity=false"])
    }

    @Test("the first session made for an archive without sessions is not restoring")
    func freshSessionWhileRestoring() throws {
        let before = Application(buildVersion: "1", delegate: SceneAppDelegate(log: CallLog()))
        before.window.rootViewController = NoteController("Root")
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        #expect(archive.sceneSessions.isEmpty)

        let (application, connections) = app()
        guard case .restored = application.launch(restoringFrom: archive) else {
            Issue.record("the archive was not restored")
            return
        }
        #expect(connections() == ["willConnect restoring=false activity=false"])
    }

    @Test("an app that does not support scenes opens no session at launch")
    func noScenes() {
        let application = Application(buildVersion: "1", delegate: SceneAppDelegate(log: CallLog()))
        application.launch(restoringFrom: nil)
        #expect(application.openSessions.isEmpty && application.connectedScenes.isEmpty)
    }
}
