internal import RestorationKit

/// The root: a venues tab and a check-in tab (restored by its restoration class).
final class TabViewController: TabBarController, ViewControllerRestoration {
    let venuesNavigation: NavigationController
    let venueList: VenueListViewController

    init(venues: [Venue]) {
        venueList = VenueListViewController(venues: venues)
        venuesNavigation = NavigationController(rootViewController: venueList)
        venuesNavigation.restorationIdentifier = RestorationID.venuesNavigation
        venuesNavigation.title = "Venues"
        super.init()
        restorationIdentifier = RestorationID.tabs
        restorationClass = TabViewController.self
        setViewControllers([venuesNavigation, CheckInViewController()])
    }

    /// The check-in tab (restoration may replace the instance `init` made).
    var checkIn: CheckInViewController? { viewControllers.lazy.compactMap { $0 as? CheckInViewController }.first }

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        let tabs = TabViewController(venues: CheckInAppDelegate.current(coder)?.venues ?? Venue.catalog)
        // The root must be the window's root while it is restored, or nothing below can present again.
        coder.application?.window.rootViewController = tabs
        return tabs
    }
}
