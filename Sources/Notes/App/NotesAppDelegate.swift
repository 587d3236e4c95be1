internal import RestorationKit

/// The notes app's delegate: it opts in to preservation and restoration (checking the build), gives
/// every window a `NoteSceneDelegate`, and keeps which window was in front in the app-level coder.
final class NotesAppDelegate: ApplicationDelegate {
    /// The key the build number is saved under in the app-level coder.
    static let buildNumberKey = "App-Build-Number"
    /// The key the key window's session is saved under.
    static let keySceneKey = "Notes-Key-Scene"

    let buildNumber: String
    let store: NoteStore
    /// The key window's session when state was last preserved; set by `keySceneToSave`.
    var keySceneToSave: () -> String? = { nil }
    /// The key window's session that the restored archive named, if any.
    private(set) var restoredKeyScene: String?

    init(buildNumber: String, store: NoteStore) {
        self.buildNumber = buildNumber
        self.store = store
    }

    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool {
        coder.encode(buildNumber, forKey: Self.buildNumberKey)
        if let key = keySceneToSave() { coder.encode(key, forKey: Self.keySceneKey) }
        return true
    }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        guard coder.decodeString(forKey: Self.buildNumberKey) == buildNumber else { return false }
        restoredKeyScene = coder.decodeString(forKey: Self.keySceneKey)
        return true
    }

    /// Every window is a note window.
    func application(
        _ application: Application, configurationForConnecting connectingSceneSession: SceneSession,
        options: SceneConnectionOptions
    ) -> SceneConfiguration {
        let store = store
        return SceneConfiguration(name: "Note", sessionRole: connectingSceneSession.role) { NoteSceneDelegate(store: store) }
    }
}
