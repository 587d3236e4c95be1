package import RelaunchApp
package import RelaunchContract
package import RestorationKit

/// Seed 001's Colorboard as a library: laid out by its storyboard file (`Colorboard.storyboard`), a
/// navigation controller whose root is the table of colors; `add` presents a new color in a
/// navigation controller (`NewColor`), a tapped color pushes its editor (`ExistingColor`). The
/// executable feeds it input and archives and does the I/O its effects ask for.
///
/// Restoration identifiers are the storyboard ids; the editor comes back through its restoration
/// class from the storyboard the coder names. The color list is the data model (`ColorStore`), saved
/// apart from the archive. Not thread-safe: use it from one task or actor.
package final class ColorboardApp {
    /// The running build; archives from another build are discarded.
    package let buildNumber: String
    /// The photos permission as the permission daemon last said (saving a swatch needs it).
    package private(set) var photos: PermissionState
    /// How the last instance ended, when it was killed for a permission change.
    package var lastExit: LastExit?
    /// The color list and the saved swatches.
    package let store = ColorStore()

    let storyboard: Storyboard
    let application: Application
    /// Launch, preservation and quits, as every hosted app does them.
    /// The session that launches, restores and preserves the app.
    package let session: RestorationSession

    /// An app for `buildNumber`, not launched yet.
    ///
    /// - Parameters:
    ///   - buildNumber: The running build (saved in every archive, compared at launch).
    ///   - photos: The photos permission at launch, from the permission daemon.
    ///   - limits: Archive size limits.
    ///   - wallClock: The time in microseconds since the Unix epoch, for archive headers.
    ///   - uptime: A monotonic time since any fixed origin, to time launches and preservations.
    package init(
        buildNumber: String, photos: PermissionState, limits: ArchiveLimits = .default,
        wallClock: @escaping @Sendable () -> UInt64 = WallClock.microseconds,
        uptime: @escaping @Sendable () -> Duration = WallClock.uptime
    ) {
        self.buildNumber = buildNumber
        self.photos = photos
        storyboard = ColorboardStoryboard.load(store: store)
        var registry = RestorationRegistry()
        registry.register(storyboard)
        registry.register(BNRColorViewController.self)
        application = Application(
            buildVersion: buildNumber, delegate: ColorboardAppDelegate(store: store, storyboard: storyboard), registry: registry)
        session = RestorationSession(application: application, limits: limits, wallClock: wallClock, uptime: uptime)
    }


    /// The last launch's report, nil before `launch`.
    package var launchReport: LaunchReport? { session.launchReport }

    /// Sets the photos permission; an active editor whose swatch was denied may try again if it may add.
    package func setPhotos(_ state: PermissionState) {
        photos = state
        if lifecycle == .active { resumeSwatch() }
    }

    /// Back with photos allowed after a denial (from Settings, or relaunched): the swatch can be saved now.
    func resumeSwatch() {
        if canSaveSwatches, let editor, editor.swatch == .denied { editor.swatch = .none }
    }

    /// Whether a swatch may be added to the photo library: with full access, limited access (an app
    /// may always add to a limited library) or add-only access, as iOS's PHAccessLevel.addOnly.
    var canSaveSwatches: Bool { [.allowed, .limited, .addOnly].contains(photos) }

    // MARK: The hierarchy, as the app knows it

    var paletteNavigation: NavigationController? { application.window.rootViewController as? NavigationController }
    var palette: BNRPaletteViewController? { paletteNavigation?.viewControllers.first as? BNRPaletteViewController }
    /// The editor pushed on the palette's navigation controller.
    var pushedEditor: BNRColorViewController? { paletteNavigation?.topViewController as? BNRColorViewController }
    /// The navigation controller of a new color, presented over the palette.
    var newColorNavigation: NavigationController? { palette?.presentedViewController as? NavigationController }
    /// The editor of a new color.
    var presentedEditor: BNRColorViewController? { newColorNavigation?.topViewController as? BNRColorViewController }
    /// The editor on screen, if any.
    var editor: BNRColorViewController? { presentedEditor ?? pushedEditor }
}
