/// The app's say in launching, preservation and restoration (the restoration half of `UIApplicationDelegate`).
///
/// Every method has a default; preservation and restoration are opt-in, as in UIKit.
public protocol ApplicationDelegate: AnyObject {
    /// Called first at launch, before restoration: load what restored controllers need.
    func applicationWillFinishLaunching(_ application: Application)
    /// Called last at launch, after restoration: set up a root if restoration did not.
    func applicationDidFinishLaunching(_ application: Application)
    /// Whether to preserve now; may add app-level values (the build version is already in `coder`).
    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool
    /// Whether to restore the archive whose app-level values `coder` holds.
    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool
    /// The fallback for a controller without a restoration class; nil lets the search go on.
    func application(
        _ application: Application, viewControllerWithRestorationIdentifierPath identifierComponents: [String],
        coder: StateCoder
    ) -> ViewController?
    /// Called before the controllers are encoded, to add app-level state.
    func application(_ application: Application, willEncodeRestorableStateWith coder: inout StateCoder)
    /// Called after every controller is restored, with the app-level state.
    func application(_ application: Application, didDecodeRestorableStateWith coder: StateCoder)
    /// The configuration to make a connecting session's scene with (its delegate); see `SceneDelegate`.
    func application(
        _ application: Application, configurationForConnecting connectingSceneSession: SceneSession,
        options: SceneConnectionOptions
    ) -> SceneConfiguration
    /// The user closed these sessions' windows: their saved state is gone; drop what the app kept for them.
    func application(_ application: Application, didDiscardSceneSessions sceneSessions: Set<SceneSession>)
}

extension ApplicationDelegate {
    /// Does nothing.
    public func applicationWillFinishLaunching(_ application: Application) {}
    /// Does nothing.
    public func applicationDidFinishLaunching(_ application: Application) {}
    /// Returns false: preservation is opt-in.
    public func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { false }
    /// Returns false: restoration is opt-in.
    public func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool { false }
    /// Returns nil: the search goes on to existing controllers and the registry's scenes.
    public func application(
        _ application: Application, viewControllerWithRestorationIdentifierPath identifierComponents: [String],
        coder: StateCoder
    ) -> ViewController? { nil }
    /// Does nothing.
    public func application(_ application: Application, willEncodeRestorableStateWith coder: inout StateCoder) {}
    /// Does nothing.
    public func application(_ application: Application, didDecodeRestorableStateWith coder: StateCoder) {}
}
