import RelaunchApp
import RelaunchContract
import RestorationKit

/// A scene-based app for the host's tests: each window edits one note, saved as its scene's activity.
/// It has no view-controller state at all, so any restore it makes is a pure-scene restore.
///
/// Its inputs: `tap("open")` opens a window, `tap("close:ID")` closes one *without* asking the host
/// to preserve (the host must notice the closed session itself), `type("ID", text)` edits a window's note.
final class SceneTestApp: SessionHostedApp {
    struct InputError: Error, CustomStringConvertible {
        var description: String
    }

    /// Each window's note.
    final class NoteDelegate: SceneDelegate {
        var note = ""

        func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity) {
            if case .string(let text)? = stateRestorationActivity.userInfo["note"] { note = text }
            scene.title = stateRestorationActivity.title
        }

        func stateRestorationActivity(for scene: Scene) -> UserActivity? {
            UserActivity(
                activityType: SceneTestApp.activityType, title: "note \(note.prefix(8))",
                userInfo: ["note": .string(note)])
        }
    }

    /// Restores every archive of its build and gives each scene a `NoteDelegate`.
    final class Delegate: ApplicationDelegate {
        var restores = true

        func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { true }
        func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool { restores }
        func application(
            _ application: Application, configurationForConnecting connectingSceneSession: SceneSession,
            options: SceneConnectionOptions
        ) -> SceneConfiguration {
            SceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role) { NoteDelegate() }
        }
    }

    static let activityType = "org.relaunch.tests.note"
    /// One permission, so that permission changes reach it; it shows them nowhere.
    static var permissions: [Permission] { [.camera] }

    let session: RestorationSession
    let delegate: Delegate
    var lastExit: LastExit?

    init(build: String = "1") {
        let delegate = Delegate()
        let application = Application(buildVersion: build, delegate: delegate)
        application.supportsScenes = true
        self.delegate = delegate
        session = RestorationSession(application: application)
    }

    /// The note of the window whose session is `identifier`.
    func note(_ identifier: String) -> String? {
        (session.application.sceneSession(withIdentifier: identifier)?.scene?.delegate as? NoteDelegate)?.note
    }

    func setPermission(_ permission: Permission, to state: PermissionState) {}
    func screen() -> String { openSceneSessions.map { "[\($0)] \(note($0) ?? "")" }.joined(separator: "\n") }
    func stateJSON() -> String {
        struct State: Encodable {
            let common: CommonAppState
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: StateKey.self)
                try common.encode(into: &container)
            }
        }
        return CommonAppState.json(State(common: CommonAppState(session: session, lastExit: lastExit, permissions: [:])))
    }
    func statusLine() -> String { "\(openSceneSessions.count) windows" }
    func elements() -> [ScreenElement] { [ScreenElement(name: "open", isField: false, description: "open a window")] }

    func tap(_ element: String) throws(InputError) -> [AppEffect] {
        if element == "open" {
            session.application.requestSceneSessionActivation()
            return []
        }
        guard element.hasPrefix("close:"),
              let closing = session.application.sceneSession(withIdentifier: String(element.dropFirst(6)))
        else { throw InputError(description: "no element \(element)") }
        session.application.requestSceneSessionDestruction(closing)
        return []
    }

    func type(_ field: String, _ text: String) throws(InputError) -> [AppEffect] {
        guard let delegate = session.application.sceneSession(withIdentifier: field)?.scene?.delegate as? NoteDelegate else {
            throw InputError(description: "no window \(field)")
        }
        delegate.note = text
        return []
    }
}
