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

    final class AppDelegate: ApplicationDelegate {
        let log: CallLog
        var restores = true
        init(log: CallLog) { self.log = log }
        func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { true }
        func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool { restores }
        func application(
            _ application: Application, configurationForConnecting connectingSceneSession: SceneSession,
            options: SceneConnectionOptions
        ) -> SceneConfiguration {
            SceneConfiguration(name: nil, sessionRole: connectingSceneSession.role) { [log] in FlagDelegate(log: log) }
        }
    }

    private func app(restores: Bool = true) -> (Application, CallLog, AppDelegate) {
        let log = CallLog()
        let delegate = AppDelegate(log: log)
        delegate.restores = restores
        let application = Application(buildVersion: "1", delegate: delegate)
        application.supportsScenes = true
        return (application, log, delegate)
    }

    @Test("a window opened after launch is not restoring and cannot extend restoration")
    func openedLater() {
        let (application, log, _) = app()
        application.launch(restoringFrom: nil)
        let scene = application.requestSceneSessionActivation()
        #expect(!scene.isRestoringState)
        scene.extendStateRestoration()
        #expect(scene.pendingStateRestorations == 0)
        #expect(log.entries == ["willConnect restoring=false activity=false", "willConnect restoring=false activity=false"])
    }

    @Test("a restored session's scene restores during the launch; a declined archive's sessions do not")
    func restoredOrDeclined() throws {
        let (before, _, _) = app()
        before.launch(restoringFrom: nil)
        before.enterBackground()
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))

        let (restoring, restoringLog, _) = app()
        restoring.launch(restoringFrom: archive)
        #expect(restoringLog.entries == ["willConnect restoring=true activity=true"])
        #expect(restoring.connectedScenes.allSatisfy { !$0.isRestoringState }, "the launch has ended")

        let (declining, decliningLog, _) = app(restores: false)
        declining.launch(restoringFrom: archive)
        #expect(decliningLog.entries == ["willConnect restoring=false activity=false"])
    }

    @Test("the first session made for an archive without sessions is not restoring")
    func freshSessionWhileRestoring() throws {
        let before = Application(buildVersion: "1", delegate: AppDelegate(log: CallLog()))
        before.window.rootViewController = NoteController("Root")
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        #expect(archive.sceneSessions.isEmpty)

        let (application, log, _) = app()
        guard case .restored = application.launch(restoringFrom: archive) else {
            Issue.record("the archive was not restored")
            return
        }
        #expect(log.entries == ["willConnect restoring=false activity=false"])
    }

    @Test("an app that does not support scenes opens no session at launch")
    func noScenes() {
        let application = Application(buildVersion: "1", delegate: AppDelegate(log: CallLog()))
        application.launch(restoringFrom: nil)
        #expect(application.openSessions.isEmpty && application.connectedScenes.isEmpty)
    }
}
