package import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// One window in the state JSON (CONTRACT.md's `scenes`), with the note window's own keys.
package struct NoteSceneState: Equatable, Sendable, Encodable {
    /// The session's persistent identifier.
    package var session: String
    /// The window's title (the note's).
    package var title: String
    /// The activity type the scene saves.
    package var activityType: String
    /// The restoration paths of the window's controllers, parents first.
    package var paths: [String]
    /// The path of the controller presented on top, or nil.
    package var presented: String?
    /// The note the window shows.
    package var noteID: String
    /// The note's text.
    package var body: String
    /// The selection's start and length, in characters (length 0: the caret).
    package var selectionStart: Int
    /// The selection's length.
    package var selectionLength: Int
    /// Why this window's saved state was discarded at launch while others restored, or nil.
    package var discarded: String?
}

/// The app's state as `relaunchctl app state --json` shows it: the contract's common keys, `scenes`,
/// and which window is the key window. Absent values encode as JSON `null`, never as missing keys.
package struct NotesState: Equatable, Sendable, Encodable {
    /// The keys every app has (`paths` and `presented` are the application window's: empty, null).
    package var common: CommonAppState
    /// The running build.
    package var buildNumber: String
    /// The open windows, in the order they were opened.
    package var scenes: [NoteSceneState]
    /// The key window's session, or nil when none is open.
    package var keyScene: String?
    /// How many notes the store holds.
    package var noteCount: Int

    /// The state as one line of JSON with sorted keys.
    package var json: String { CommonAppState.json(self) }

    /// Encodes the common keys, then the app's own.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try common.encode(into: &container)
        try container.encode(buildNumber, forKey: "buildNumber")
        try container.encode(scenes, forKey: "scenes")
        try container.encode(keyScene, forKey: "keyScene")
        try container.encode(noteCount, forKey: "noteCount")
    }
}

extension NoteSceneState {
    /// Encodes every key, absent values as `null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try container.encode(session, forKey: "session")
        try container.encode(title, forKey: "title")
        try container.encode(activityType, forKey: "activityType")
        try container.encode(paths, forKey: "paths")
        try container.encode(presented, forKey: "presented")
        try container.encode(noteID, forKey: "noteID")
        try container.encode(body, forKey: "body")
        try container.encode(selectionStart, forKey: "selectionStart")
        try container.encode(selectionLength, forKey: "selectionLength")
        try container.encode(discarded, forKey: "discarded")
    }
}

extension NotesApp {
    /// The state, as a value.
    package func state() -> NotesState {
        NotesState(
            common: CommonAppState(session: session, lastExit: lastExit, permissions: [.photos: photos]),
            buildNumber: buildNumber,
            scenes: windows.map(sceneState),
            keyScene: keyScene?.session.persistentIdentifier,
            noteCount: store.notes.count)
    }

    /// The state as JSON with the contract's common keys and the app's own (sorted; absent values null).
    package func stateJSON() -> String { state().json }

    private func sceneState(_ scene: Scene) -> NoteSceneState {
        let editor = editor(of: scene)
        let top = scene.window.topViewController
        let range = editor?.textView.selectedRange ?? 0..<0
        return NoteSceneState(
            session: scene.session.persistentIdentifier, title: scene.title ?? "",
            activityType: NoteSceneDelegate.activityType,
            paths: scene.window.restorationPaths.map { $0.joined(separator: "/") },
            presented: top?.presentingViewController == nil ? nil : top?.restorationPath?.joined(separator: "/"),
            noteID: editor?.noteID ?? "", body: editor?.textView.text ?? "",
            selectionStart: range.lowerBound, selectionLength: range.count,
            discarded: scene.session.restorationDiscardReason?.rawValue)
    }
}
