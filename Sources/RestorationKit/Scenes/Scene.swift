/// One window of a scene-based app and its life (`UIWindowScene`).
///
/// The application makes scenes: at launch, one for each session that existed (restored from its
/// saved activity), and one per `Application.requestSceneSessionActivation(userActivity:role:)`.
///
/// Supported combination with view-controller restoration: a scene restores from its activity only.
/// The view-controller path (`restorationIdentifier`, restoration classes, `encodeRestorableState`)
/// stays the application's, for `Application.window`; a scene's own `window` is not preserved by it.
/// UIKit also preserves each scene's controllers when the app opts in; that is not done here yet
/// (the archive's per-session record has a version byte so that it can carry them later).
public final class Scene {
    /// Where a scene is in its life (`UIScene.ActivationState`).
    public enum ActivationState: String, Sendable, CaseIterable {
        /// Made but not connected yet, or disconnected.
        case unattached
        /// In front and receiving events.
        case foregroundActive
        /// In front, not receiving events (while connecting or leaving).
        case foregroundInactive
        /// Not visible.
        case background
    }

    /// The session the scene shows.
    public let session: SceneSession
    /// The scene's delegate (held strongly, as `UIScene` holds its delegate).
    public var delegate: (any SceneDelegate)?
    /// Where the scene is in its life.
    public internal(set) var activationState = ActivationState.unattached
    /// The scene's window.
    public let window = Window()
    /// A title for the window (the note's name, say); the delegate usually sets it.
    public var title: String?
    /// The application the scene belongs to.
    public private(set) weak var application: Application?
    /// How many of this scene's `extendStateRestoration()` calls are not yet completed.
    public internal(set) var pendingStateRestorations = 0
    /// Whether this scene is restoring: from its connection until the end of the launch, or until its
    /// last `completeStateRestoration()` when it extended restoration.
    public internal(set) var isRestoringState: Bool

    /// A scene for `session` of `application`, restoring or not from its connection on.
    init(session: SceneSession, application: Application, restoring: Bool) {
        self.session = session
        self.application = application
        isRestoringState = restoring
    }

    /// Says that this scene's restoration goes on after it connected (its note loading, say): the
    /// application's restoration, and so its restoring mark, lasts until every such call of every
    /// scene is matched by `completeStateRestoration()`. A crash in between discards the saved state
    /// at the next launch (`crashed-during-restore`), as for `Application.extendStateRestoration()`.
    ///
    /// Call it while the scene restores (in `SceneDelegate.scene(_:willConnectTo:options:)` or
    /// `SceneDelegate.scene(_:restoreInteractionStateWith:)`); otherwise it does nothing.
    public func extendStateRestoration() {
        guard isRestoringState, let application, application.isRestoringState else { return }
        pendingStateRestorations += 1
        application.extendStateRestoration()
    }

    /// Ends one of this scene's `extendStateRestoration()` calls; extra calls do nothing.
    public func completeStateRestoration() {
        guard pendingStateRestorations > 0 else { return }
        pendingStateRestorations -= 1
        if pendingStateRestorations == 0, launchEnded { isRestoringState = false }
        application?.completeStateRestoration()
    }

    /// Whether the launch that connected the scene has ended.
    private var launchEnded = false

    /// Ends the scene's restoring period at the end of the launch, unless it extended restoration.
    func launchFinished() {
        launchEnded = true
        if pendingStateRestorations == 0 { isRestoringState = false }
    }
}
