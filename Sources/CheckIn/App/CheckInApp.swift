package import RelaunchApp
package import RelaunchContract
package import RestorationKit

/// The check-in app of seed 002 as a library: the executable feeds it input and archives and does
/// the I/O its effects ask for.
///
/// A venues tab (a list with model association and a pushed detail) and a check-in tab whose button
/// presents `CheckInModalNavigationController` with `CheckInModalViewController` over a dimmed
/// overlay. Not thread-safe: use it from one task or actor.
package final class CheckInApp {
    /// The running build; archives from another build are discarded.
    package let buildNumber: String
    /// The camera permission as the permission daemon last said.
    package private(set) var camera: PermissionState
    /// How the last instance ended, when it was killed for a permission change.
    package var lastExit: LastExit?
    /// The last launch's report, nil before `launch`.
    package var launchReport: LaunchReport? { session.launchReport }

    let application: Application
    let delegate: CheckInAppDelegate
    /// Launch, preservation and quits, as every hosted app does them.
    /// The session that launches, restores and preserves the app.
    package let session: RestorationSession

    /// An app for `buildNumber`, not launched yet.
    ///
    /// - Parameters:
    ///   - buildNumber: The running build (saved in every archive, compared at launch).
    ///   - camera: The camera permission at launch, from the permission daemon.
    ///   - venues: The venue catalog (the app's data model).
    ///   - limits: Archive size limits.
    ///   - wallClock: The time in microseconds since the Unix epoch, for archive headers.
    ///   - uptime: A monotonic time since any fixed origin, to time launches and preservations.
    package init(
        buildNumber: String, camera: PermissionState, venues: [Venue] = Venue.catalog,
        limits: ArchiveLimits = .default, wallClock: @escaping @Sendable () -> UInt64 = WallClock.microseconds,
        uptime: @escaping @Sendable () -> Duration = WallClock.uptime
    ) {
        self.buildNumber = buildNumber
        self.camera = camera
        delegate = CheckInAppDelegate(buildNumber: buildNumber, venues: venues)
        var registry = RestorationRegistry()
        for restorationClass: any ViewControllerRestoration.Type in [
            TabViewController.self, CheckInViewController.self, CheckInModalViewController.self,
            VenueDetailViewController.self,
        ] {
            registry.register(restorationClass)
        }
        application = Application(buildVersion: buildNumber, delegate: delegate, registry: registry)
        session = RestorationSession(application: application, limits: limits, wallClock: wallClock, uptime: uptime)
    }


    /// Sets the camera permission; an active app with the modal at `denied` moves on to `scan` if allowed.
    package func setCamera(_ state: PermissionState) {
        camera = state
        if lifecycle == .active { modal?.form.resume(camera: camera) }
    }

    // MARK: The hierarchy, as the app knows it

    var tabs: TabViewController? { application.window.rootViewController as? TabViewController }
    var venuesNavigation: NavigationController? {
        tabs?.viewControllers.first { $0.restorationIdentifier == RestorationID.venuesNavigation } as? NavigationController
    }
    var venueList: VenueListViewController? { venuesNavigation?.viewControllers.first as? VenueListViewController }
    var venueDetail: VenueDetailViewController? { venuesNavigation?.topViewController as? VenueDetailViewController }
    var checkInTab: CheckInViewController? { tabs?.checkIn }
    var modal: CheckInModalViewController? { checkInTab?.modal }

    var selectedTab: Tab {
        tabs?.selectedViewController is CheckInViewController ? .checkIn : .venues
    }
}
