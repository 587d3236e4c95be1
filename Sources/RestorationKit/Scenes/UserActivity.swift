/// What a scene was doing, saved with its session so that the scene can pick it up again
/// (the part of `NSUserActivity` that state restoration uses).
///
/// A scene delegate returns one from `SceneDelegate.stateRestorationActivity(for:)` when its scene
/// goes to the background; the next launch hands it back through `SceneSession.stateRestorationActivity`
/// and `SceneDelegate.scene(_:restoreInteractionStateWith:)`.
///
/// Deviations from `NSUserActivity`, and why: it is a value, not a shared object, because it is
/// saved and compared as data and nothing observes it; its `userInfo` holds `StateValue`s (the
/// values a `StateCoder` holds) rather than any property-list object, so that the archive can store
/// every value it is given; Handoff, search and the other activity features are not modelled.
public struct UserActivity: Equatable, Sendable {
    /// What kind of activity this is, in reverse-DNS form (`"org.example.notes.editing"`).
    public var activityType: String
    /// A title the user could recognise the activity by (the note being edited, say).
    public var title: String?
    /// The activity's state: identifiers and small values, not data the app keeps elsewhere.
    public var userInfo: [String: StateValue]
    /// The identifier of the content the activity is about, for routing it to the right scene.
    public var targetContentIdentifier: String?

    /// An activity of `activityType`.
    ///
    /// - Parameters:
    ///   - activityType: What kind of activity this is.
    ///   - title: A title the user could recognise it by.
    ///   - userInfo: Its state.
    ///   - targetContentIdentifier: The identifier of the content it is about.
    public init(
        activityType: String, title: String? = nil, userInfo: [String: StateValue] = [:],
        targetContentIdentifier: String? = nil
    ) {
        self.activityType = activityType
        self.title = title
        self.userInfo = userInfo
        self.targetContentIdentifier = targetContentIdentifier
    }

    /// Adds `entries` to `userInfo`, replacing values under the same keys (`addUserInfoEntries(from:)`).
    public mutating func addUserInfoEntries(from entries: [String: StateValue]) {
        userInfo.merge(entries) { _, new in new }
    }
}

/// The options a scene is connected with (`UIScene.ConnectionOptions`).
///
/// State restoration does not come through here: as in UIKit, the activity to restore is the session's
/// `SceneSession.stateRestorationActivity`. `userActivities` holds the activity a new window was
/// opened for (`Application.requestSceneSessionActivation(userActivity:role:)`).
public struct SceneConnectionOptions: Equatable, Sendable {
    /// The activities the scene was connected to continue (empty for a restored scene).
    public var userActivities: [UserActivity]

    /// Options with `userActivities`.
    public init(userActivities: [UserActivity] = []) {
        self.userActivities = userActivities
    }
}
