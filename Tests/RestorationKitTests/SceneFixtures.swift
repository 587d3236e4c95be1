import RestorationKit
import Testing

/// A log shared by an app delegate and the scene delegates it makes, in call order.
final class CallLog {
    var entries: [String] = []
    /// Short names for session identifiers (random UUIDs), so that entries read "A …", "B …".
    var names: [String: String] = [:]

    func name(of session: SceneSession) -> String { names[session.persistentIdentifier] ?? session.persistentIdentifier }
    func append(_ entry: String) { entries.append(entry) }
}

/// A scene delegate that edits one note: it saves the note as its activity and logs every call.
final class NoteSceneDelegate: SceneDelegate {
    let log: CallLog
    var note = ""
    /// Whether it extends its scene's restoration when it connects with an activity.
    var extendsRestoration = false

    init(log: CallLog) { self.log = log }

    private func name(_ scene: Scene) -> String { log.name(of: scene.session) }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        log.append("\(name(scene)) willConnect activity=\(session.stateRestorationActivity?.title ?? "nil")")
        if extendsRestoration, session.stateRestorationActivity != nil { scene.extendStateRestoration() }
    }
    func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity) {
        if case .string(let text)? = stateRestorationActivity.userInfo["note"] { note = text }
        log.append("\(name(scene)) restoreInteractionState note=\(note)")
    }
    func sceneWillEnterForeground(_ scene: Scene) { log.append("\(name(scene)) willEnterForeground") }
    func sceneDidBecomeActive(_ scene: Scene) { log.append("\(name(scene)) didBecomeActive") }
    func sceneWillResignActive(_ scene: Scene) { log.append("\(name(scene)) willResignActive") }
    func sceneDidEnterBackground(_ scene: Scene) { log.append("\(name(scene)) didEnterBackground") }
    func sceneDidDisconnect(_ scene: Scene) { log.append("\(name(scene)) didDisconnect") }
    func stateRestorationActivity(for scene: Scene) -> UserActivity? {
        log.append("\(name(scene)) stateRestorationActivity")
        return UserActivity(
            activityType: "org.relaunch.notes.editing", title: "note \(name(scene))",
            userInfo: ["note": .string(note), "cursor": .int(Int64(note.count))],
            targetContentIdentifier: "note-\(name(scene))")
    }
}

/// The app delegate of a scene-based app: it restores everything and makes `NoteSceneDelegate`s.
final class SceneAppDelegate: ApplicationDelegate {
    let log: CallLog
    var extendsRestoration = false
    /// What `shouldRestoreApplicationState` answers.
    var restores = true
    /// Makes each scene's delegate instead of a `NoteSceneDelegate`, when set.
    var makeSceneDelegate: ((CallLog) -> any SceneDelegate)?
    var discarded: [Set<SceneSession>] = []

    init(log: CallLog) { self.log = log }

    func applicationWillFinishLaunching(_ application: Application) { log.append("willFinishLaunching") }
    func applicationDidFinishLaunching(_ application: Application) { log.append("didFinishLaunching") }
    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { true }
    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        log.append("shouldRestore")
        return restores
    }
    func application(
        _ application: Application, configurationForConnecting connectingSceneSession: SceneSession,
        options: SceneConnectionOptions
    ) -> SceneConfiguration {
        log.append("\(log.name(of: connectingSceneSession)) configurationForConnecting")
        let extends = extendsRestoration
        let make = makeSceneDelegate
        return SceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role) { [log] in
            if let make { return make(log) }
            let delegate = NoteSceneDelegate(log: log)
            delegate.extendsRestoration = extends
            return delegate
        }
    }
    func application(_ application: Application, didDiscardSceneSessions sceneSessions: Set<SceneSession>) {
        log.append("didDiscardSceneSessions \(sceneSessions.map { log.name(of: $0) }.sorted())")
        discarded.append(sceneSessions)
    }
}

/// A scene-based app with windows named `names` (the first opened at launch), each editing the note
/// "text of NAME", and the log its delegates share.
func sceneApp(windows names: [String]) -> (Application, CallLog) {
    let log = CallLog()
    let application = Application(buildVersion: "1", delegate: SceneAppDelegate(log: log))
    application.supportsScenes = true
    application.launch(restoringFrom: nil)
    for (index, name) in names.enumerated() {
        if index > 0 { application.requestSceneSessionActivation() }
        let session = application.openSessions[index]
        log.names[session.persistentIdentifier] = name
        (session.scene?.delegate as? NoteSceneDelegate)?.note = "text of \(name)"
    }
    log.entries.removeAll()
    return (application, log)
}

/// The scene delegate of `session`'s scene.
func noteDelegate(of session: SceneSession?) -> NoteSceneDelegate? { session?.scene?.delegate as? NoteSceneDelegate }

/// `archive` written to bytes and read back, as a relaunch reads it from disk.
func throughBytes(_ archive: RestorationArchive) throws -> RestorationArchive {
    try ArchiveCodec.decode(ArchiveCodec.encode(archive)).archive
}

/// A new process of the app: a new application whose log names sessions as `names` did.
func relaunchedSceneApp(names: [String: String], extendsRestoration: Bool = false) -> (Application, CallLog) {
    let log = CallLog()
    log.names = names
    let delegate = SceneAppDelegate(log: log)
    delegate.extendsRestoration = extendsRestoration
    let application = Application(buildVersion: "1", delegate: delegate)
    application.supportsScenes = true
    return (application, log)
}
