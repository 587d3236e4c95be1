package import RelaunchApp
package import RelaunchContract
internal import RestorationKit

/// The windows as App1's scene methods see them: listed, opened, closed, and input aimed at one.
extension NotesApp: SceneHostableApp {
    /// The open windows, in the order they were opened: session, the note's title, the activity type.
    package func sceneSummaries() -> [AppScene] {
        windows.map { scene in
            AppScene(
                session: scene.session.persistentIdentifier, title: scene.title ?? "",
                activityType: NoteSceneDelegate.activityType)
        }
    }

    /// Opens a window with a new note and makes it the key window.
    /// - Returns: Its session and saving the notes (the new note is one).
    /// - Throws: `SceneInputError.rejected` in the background.
    package func openScene() throws(SceneInputError) -> (session: String, effects: [AppEffect]) {
        guard lifecycle == .active else { throw .rejected(InputError.inBackground.description) }
        let scene = application.requestSceneSessionActivation()
        keySession = scene.session.persistentIdentifier
        return (scene.session.persistentIdentifier, [.saveData(store.bytes)])
    }

    /// Closes the window of `session`: its saved state goes (the host preserves at once). Its note stays.
    package func closeScene(_ session: String) throws(SceneInputError) -> [AppEffect] {
        let scene = try scene(session)
        do {
            return try tap("close-window", in: scene)
        } catch {
            throw .rejected(error.description)
        }
    }

    /// `tap(_:)` aimed at the window of `session`; it becomes the key window.
    package func tap(_ element: String, inScene session: String) throws(SceneInputError) -> [AppEffect] {
        let scene = try scene(session)
        do {
            return try tap(element, in: scene)
        } catch {
            throw .rejected(error.description)
        }
    }

    /// `type(_:_:)` aimed at the window of `session`; it becomes the key window.
    package func type(_ field: String, _ text: String, inScene session: String) throws(SceneInputError) -> [AppEffect] {
        let scene = try scene(session)
        do {
            return try type(field, text, in: scene)
        } catch {
            throw .rejected(error.description)
        }
    }

    /// The window of `session`, drawn alone.
    package func screen(ofScene session: String) throws(SceneInputError) -> String {
        let scene = try scene(session)
        return drawWindow(scene)
    }

    /// What the window of `session` accepts.
    package func elements(ofScene session: String) throws(SceneInputError) -> [ScreenElement] {
        elements(in: try scene(session))
    }

    /// The open window of `session`.
    func scene(_ session: String) throws(SceneInputError) -> Scene {
        guard let scene = windows.first(where: { $0.session.persistentIdentifier == session }) else {
            throw .unknownScene(session, open: windows.map(\.session.persistentIdentifier))
        }
        return scene
    }
}
