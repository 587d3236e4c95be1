internal import RelaunchBus
internal import RelaunchDriver
internal import Systemd

// MARK: Scenes

extension TestedApp {
    /// The open windows of a scene-based app, in the order they were opened: each one's session
    /// identifier (the same across relaunches, so a test finds the window again after a kill), title
    /// and the activity type its scene saves.
    ///
    /// An app that is not scene-based refuses: the error's code is `RelaunchTestingError.Code.rejected`.
    public func scenes() async throws(RelaunchTestingError) -> [AppScene] {
        let values = try await link.app1(.scenes)
        do {
            return try AppScene.scenes(from: values)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s Scenes() reply could not be read: \(error.message)")
        }
    }

    /// Opens a new window, as the user asking for one does.
    /// - Returns: Its session's persistent identifier.
    @discardableResult
    public func openScene() async throws(RelaunchTestingError) -> String {
        let values = try await link.app1(.openScene)
        do {
            return try values.string(at: 0)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s OpenScene() reply could not be read: \(error.message)")
        }
    }

    /// Closes the window of `session`; its saved state goes with it.
    public func closeScene(_ session: String) async throws(RelaunchTestingError) {
        try await link.app1(.closeScene, [.string(session)])
    }

    /// Taps `element` in the window of `session` (an unknown session is refused, with the open ones listed).
    public func tap(_ element: String, inScene session: String) async throws(RelaunchTestingError) {
        try await link.app1(.sceneTap, [.string(session), .string(element)])
    }

    /// Types `text` into `field` of the window of `session`.
    public func type(_ text: String, into field: String, inScene session: String) async throws(RelaunchTestingError) {
        try await link.app1(.sceneType, [.string(session), .string(field), .string(text)])
    }

    /// The window of `session` drawn as text.
    public func screen(ofScene session: String) async throws(RelaunchTestingError) -> String {
        let values = try await link.app1(.sceneScreen, [.string(session)])
        do {
            return try values.string(at: 0)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s SceneScreen() reply could not be read: \(error.message)")
        }
    }
}
