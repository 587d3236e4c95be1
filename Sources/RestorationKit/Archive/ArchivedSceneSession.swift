/// One scene session as an archive keeps it: its identity and the activity its scene saved.
///
/// Each session's activity is stored as a record of its own, with its own length and checksum, so
/// that a record this build cannot read is discarded alone (`discardReason`) while the other
/// sessions restore. The session itself (identifier and role) still comes back, without an activity,
/// as a window does in UIKit whose restoration data was lost.
public struct ArchivedSceneSession: Equatable, Sendable {
    /// The session's persistent identifier.
    public var identifier: String
    /// Its role.
    public var role: SceneSession.Role
    /// The activity its scene saved, if any.
    public var activity: UserActivity?
    /// Why its saved activity was discarded when the archive was read (nil when it was read).
    public var discardReason: DiscardReason?
    /// What was wrong with it, for logs (nil when it was read).
    public var discardDetail: String?

    /// A session record of the given parts.
    ///
    /// - Parameters:
    ///   - identifier: The session's persistent identifier.
    ///   - role: Its role.
    ///   - activity: The activity its scene saved.
    public init(identifier: String, role: SceneSession.Role = .windowApplication, activity: UserActivity?) {
        self.identifier = identifier
        self.role = role
        self.activity = activity
    }

    /// A session whose saved activity could not be read.
    init(identifier: String, role: SceneSession.Role, discarded reason: DiscardReason, detail: String) {
        self.identifier = identifier
        self.role = role
        discardReason = reason
        discardDetail = detail
    }
}
