internal import RestorationKit

/// A note window's delegate, written as a UIKit scene delegate is: it sets the window up from the
/// session's saved activity in `scene(_:willConnectTo:options:)`, puts the selection and the picker
/// back in `scene(_:restoreInteractionStateWith:)`, and describes the window as an activity when the
/// scene goes to the background.
final class NoteSceneDelegate: SceneDelegate {
    /// The activity type every note window saves.
    static let activityType = "org.relaunch.notes.editing"
    /// `userInfo` keys of the saved activity.
    enum Key {
        static let noteID = "noteID"
        static let selectionStart = "selectionStart"
        static let selectionLength = "selectionLength"
        static let picker = "attachmentPicker"
    }

    private let store: NoteStore
    /// The window's editor, once connected.
    private(set) var editor: NoteViewController?

    init(store: NoteStore) {
        self.store = store
    }

    /// Shows the note the saved activity (or the activity the window was opened for) names; a window
    /// whose note is gone, or a new window, gets a new note.
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        let activity = session.stateRestorationActivity ?? connectionOptions.userActivities.first
        var note: Note?
        if case .string(let id)? = activity?.userInfo[Key.noteID] { note = store.note(id) }
        let shown = note ?? store.makeNote()
        let editor = NoteViewController(noteID: shown.id, body: shown.body)
        self.editor = editor
        scene.window.rootViewController = editor
        scene.title = shown.displayTitle
    }

    /// Puts back the selection (when it still fits the text) and the attachment picker.
    func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity) {
        guard let editor else { return }
        let info = stateRestorationActivity.userInfo
        if case .int(let start)? = info[Key.selectionStart], case .int(let length)? = info[Key.selectionLength],
            start >= 0, length >= 0, start <= Int64(editor.textView.text.count) - length
        {
            editor.textView.selectedRange = Int(start)..<Int(start + length)
        }
        if case .bool(true)? = info[Key.picker] { editor.presentPicker() }
    }

    /// The window as an activity: its note, the selection, and whether the picker is up.
    func stateRestorationActivity(for scene: Scene) -> UserActivity? {
        guard let editor else { return nil }
        let range = editor.textView.selectedRange
        return UserActivity(
            activityType: Self.activityType, title: store.note(editor.noteID)?.displayTitle ?? "Untitled",
            userInfo: [
                Key.noteID: .string(editor.noteID),
                Key.selectionStart: .int(Int64(range.lowerBound)),
                Key.selectionLength: .int(Int64(range.count)),
                Key.picker: .bool(editor.picker != nil),
            ],
            targetContentIdentifier: editor.noteID)
    }
}

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
