/// One window of a scene-based app, as App1's `Scenes()` lists it and `relaunchctl app scenes --json`
/// prints it (CONTRACT.md, Scenes): the app serves it, relaunchctl and RelaunchTesting read it.
public struct AppScene: Sendable, Hashable, Codable {
    /// The session's persistent identifier (the same across relaunches).
    public var session: String
    /// The window's title (for notes-demo, the note's), or empty.
    public var title: String
    /// The activity type the window's scene saves when it goes to the background, or empty.
    public var activityType: String

    /// A window's row.
    public init(session: String, title: String, activityType: String) {
        self.session = session
        self.title = title
        self.activityType = activityType
    }
}
