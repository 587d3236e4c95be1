internal import RelaunchBus
internal import Systemd

/// One window of a scene-based app (App1's `Scenes()`).
public struct TestedScene: Sendable, Hashable {
    /// The session's persistent identifier: the same across relaunches, so a test can find the
    /// window again after a kill.
    public var session: String
    /// The window's title (for notes-demo, the note's).
    public var title: String
    /// The activity type the window's scene saves when it goes to the background.
    public var activityType: String

    /// A window's row.
    public init(session: String, title: String, activityType: String) {
        self.session = session
        self.title = title
        self.activityType = activityType
    }
}

// MARK: Scenes

extension TestedApp {
    /// The open windows of a scene-based app, in the order they were opened.
    ///
    /// An app that is not scene-based refuses: the error's code is ``RelaunchTestingError/Code/rejected``.
    public func scenes() async throws(RelaunchTestingError) -> [TestedScene] {
        let values = try await app1("Scenes")
        do {
            return try AppScene.scenes(from: values).map {
                TestedScene(session: $0.session, title: $0.title, activityType: $0.activityType)
            }
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s Scenes() reply could not be read: \(error.message)")
        }
    }

    /// Opens a new window, as the user asking for one does.
    /// - Returns: Its session's persistent identifier.
    @discardableResult
    public func openScene() async throws(RelaunchTestingError) -> String {
        let values = try await app1("OpenScene")
        do {
            return try values.string(at: 0)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s OpenScene() reply could not be read: \(error.message)")
        }
    }

    /// Closes the window of `session`; its saved state goes with it.
    public func closeScene(_ session: String) async throws(RelaunchTestingError) {
        try await app1("CloseScene", [.string(session)])
    }

    /// Taps `element` in the window of `session` (an unknown session is refused, with the open ones listed).
    public func tap(_ element: String, inScene session: String) async throws(RelaunchTestingError) {
        try await app1("SceneTap", [.string(session), .string(element)])
    }

    /// Types `text` into `field` of the window of `session`.
    public func type(_ text: String, into field: String, inScene session: String) async throws(RelaunchTestingError) {
        try await app1("SceneType", [.string(session), .string(field), .string(text)])
    }

    /// The window of `session` drawn as text.
    public func screen(ofScene session: String) async throws(RelaunchTestingError) -> String {
        let values = try await app1("SceneScreen", [.string(session)])
        do {
            return try values.string(at: 0)
        } catch {
            throw RelaunchTestingError(.unexpectedReply, "\(id)'s SceneScreen() reply could not be read: \(error.message)")
        }
    }
}
