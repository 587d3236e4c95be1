internal import RestorationKit

/// The restoration identifiers of the check-in app's controllers (CONTRACT.md names the first four).
public enum RestorationID {
    /// The tab bar at the root.
    public static let tabs = "TabViewController"
    /// The check-in tab.
    public static let checkIn = "CheckInViewController"
    /// The navigation controller the check-in modal is presented in.
    public static let modalNavigation = "CheckInModalNavigationController"
    /// The check-in modal.
    public static let modal = "CheckInModalViewController"
    /// The venues tab's navigation controller.
    public static let venuesNavigation = "VenuesNavigationController"
    /// The venue list.
    public static let venueList = "VenueListViewController"
    /// A venue's detail, pushed from the list.
    public static let venueDetail = "VenueDetailViewController"
}

extension CheckInAppDelegate {
    /// The running app delegate, reached from a restoration class through the coder.
    static func current(_ coder: StateCoder) -> CheckInAppDelegate? {
        coder.application?.delegate as? CheckInAppDelegate
    }
}
