/// What a scene tells its app, and what the app saves of it (`UIWindowSceneDelegate`'s restoration part).
///
/// Every method has a default that does nothing (or returns nil), as in UIKit.
///
/// The order of calls, as UIKit documents it:
/// - connecting (at launch for each session that existed, or for a new window):
///   `scene(_:willConnectTo:options:)` (the session's `stateRestorationActivity` is already set),
///   then `scene(_:restoreInteractionStateWith:)` when there is an activity, then
///   `sceneWillEnterForeground(_:)` and `sceneDidBecomeActive(_:)`;
/// - going to the background: `sceneWillResignActive(_:)`, `sceneDidEnterBackground(_:)`, then
///   `stateRestorationActivity(for:)`, whose answer is saved with the session;
/// - coming back: `sceneWillEnterForeground(_:)`, `sceneDidBecomeActive(_:)`;
/// - the window closed: `sceneWillResignActive(_:)` if it was active, `sceneDidEnterBackground(_:)`
///   if it was in front, `sceneDidDisconnect(_:)`; then the app delegate's
///   `ApplicationDelegate.application(_:didDiscardSceneSessions:)`.
public protocol SceneDelegate: AnyObject {
    /// The scene is being connected to `session`: set up its window from `session.stateRestorationActivity`.
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions)
    /// The scene was removed (its window closed); its session may live on.
    func sceneDidDisconnect(_ scene: Scene)
    /// The scene is about to come to the front.
    func sceneWillEnterForeground(_ scene: Scene)
    /// The scene is in front and receives events.
    func sceneDidBecomeActive(_ scene: Scene)
    /// The scene is about to stop receiving events.
    func sceneWillResignActive(_ scene: Scene)
    /// The scene is no longer visible.
    func sceneDidEnterBackground(_ scene: Scene)
    /// The activity to save with the scene's session, asked when it enters the background; nil saves none.
    func stateRestorationActivity(for scene: Scene) -> UserActivity?
    /// Restores what the user was doing (a selection, a scroll position) from the saved activity,
    /// after `scene(_:willConnectTo:options:)` and before the scene comes to the front.
    func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity)
}

extension SceneDelegate {
    /// Does nothing.
    public func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {}
    /// Does nothing.
    public func sceneDidDisconnect(_ scene: Scene) {}
    /// Does nothing.
    public func sceneWillEnterForeground(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidBecomeActive(_ scene: Scene) {}
    /// Does nothing.
    public func sceneWillResignActive(_ scene: Scene) {}
    /// Does nothing.
    public func sceneDidEnterBackground(_ scene: Scene) {}
    /// Returns nil: nothing is saved.
    public func stateRestorationActivity(for scene: Scene) -> UserActivity? { nil }
    /// Does nothing.
    public func scene(_ scene: Scene, restoreInteractionStateWith stateRestorationActivity: UserActivity) {}
}

extension ApplicationDelegate {
    /// Returns a configuration without a delegate for the session's role: override it to give scenes one.
    public func application(
        _ application: Application, configurationForConnecting connectingSceneSession: SceneSession,
        options: SceneConnectionOptions
    ) -> SceneConfiguration {
        SceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
    }

    /// Does nothing.
    public func application(_ application: Application, didDiscardSceneSessions sceneSessions: Set<SceneSession>) {}
}
