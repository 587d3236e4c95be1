public import RelaunchContract

/// A `HostableApp` whose interface lives in scenes (several windows, each restored from the activity
/// it saved): App1's scene methods list its windows, open and close one, and aim input at one.
///
/// The plain `HostableApp` members still serve: `tap`, `type`, `screen` and `elements` without a
/// scene act on the app as a whole (a scene-based app aims them at its key window, and draws every
/// window on its screen).
public protocol SceneHostableApp: HostableApp {
    /// The open windows, in the order they were opened (App1's `Scenes()`).
    func sceneSummaries() -> [AppScene]
    /// Opens a new window, as the user asking for one does (`OpenScene()`).
    /// - Returns: The new session's persistent identifier and what the host must do.
    /// - Throws: `SceneInputError.rejected` when no window can be opened now (in the background).
    func openScene() throws(SceneInputError) -> (session: String, effects: [AppEffect])
    /// Closes the window of `session`; its saved state goes with it (`CloseScene(session)`).
    func closeScene(_ session: String) throws(SceneInputError) -> [AppEffect]
    /// `Tap(element)` aimed at the window of `session` (`SceneTap(session, element)`).
    func tap(_ element: String, inScene session: String) throws(SceneInputError) -> [AppEffect]
    /// `Type(field, text)` aimed at the window of `session` (`SceneType(session, field, text)`).
    func type(_ field: String, _ text: String, inScene session: String) throws(SceneInputError) -> [AppEffect]
    /// The window of `session` drawn as text (`SceneScreen(session)`).
    func screen(ofScene session: String) throws(SceneInputError) -> String
    /// What the window of `session` accepts (`SceneElements(session)`).
    func elements(ofScene session: String) throws(SceneInputError) -> [ScreenElement]
}

/// Why a scene method was refused; every message is one line that says what is accepted.
public enum SceneInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No open window has this session identifier; `open` lists those that do.
    case unknownScene(String, open: [String])
    /// The app refused the input (its own one-line message).
    case rejected(String)

    /// What went wrong and what to do, in one line.
    public var description: String {
        switch self {
        case .unknownScene(let session, let open):
            "no open scene has the session \(Echo.quoted(session)); open: "
                + (open.isEmpty ? "none" : open.joined(separator: ", ")) + " (relaunchctl app scenes lists them)"
        case .rejected(let message):
            message
        }
    }
}
