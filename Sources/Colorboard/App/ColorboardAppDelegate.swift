internal import RestorationKit

/// The app delegate: the main storyboard's initial controller becomes the window's root before
/// restoration (as UIKit does for an app with a main storyboard), and state is saved and restored
/// when the build is the same (the seed returns YES to both).
final class ColorboardAppDelegate: ApplicationDelegate {
    let store: ColorStore
    let storyboard: Storyboard

    init(store: ColorStore, storyboard: Storyboard) {
        self.store = store
        self.storyboard = storyboard
    }

    func applicationWillFinishLaunching(_ application: Application) {
        application.window.rootViewController = storyboard.instantiateInitialViewController()
    }

    /// A new color's editor that came back without its color (the list no longer has it) is
    /// dismissed: it would edit nothing.
    func applicationDidFinishLaunching(_ application: Application) {
        let palette = application.window.rootViewController?.children.first
        let editor = (palette?.presentedViewController as? NavigationController)?.topViewController as? BNRColorViewController
        if let editor, editor.colorDescription == nil { palette?.dismiss() }
    }

    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool { true }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        coder.decodeString(forKey: StateCoder.bundleVersionKey) == application.buildVersion
    }

    /// The running app delegate, reached from a restoration class through the coder.
    static func current(_ coder: StateCoder) -> ColorboardAppDelegate? {
        coder.application?.delegate as? ColorboardAppDelegate
    }
}
