internal import RestorationKit

/// The check-in app's delegate, as the seed writes it: build-number check, the modal navigation
/// controller fallback and a root when restoration made none.
final class CheckInAppDelegate: ApplicationDelegate {
    /// The key the build number is saved under in the app-level coder (the seed's key).
    static let buildNumberKey = "App-Build-Number"

    let buildNumber: String
    let venues: [Venue]

    init(buildNumber: String, venues: [Venue]) {
        self.buildNumber = buildNumber
        self.venues = venues
    }

    func applicationDidFinishLaunching(_ application: Application) {
        if application.window.rootViewController == nil {
            application.window.rootViewController = TabViewController(venues: venues)
        }
    }

    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool {
        coder.encode(buildNumber, forKey: Self.buildNumberKey)
        return true
    }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        coder.decodeString(forKey: Self.buildNumberKey) == buildNumber
    }

    /// The modal's navigation controller has no restoration class: it is made here, bar hidden.
    func application(
        _ application: Application, viewControllerWithRestorationIdentifierPath identifierComponents: [String],
        coder: StateCoder
    ) -> ViewController? {
        guard identifierComponents.last == RestorationID.modalNavigation else { return nil }
        let navigation = NavigationController()
        navigation.restorationIdentifier = RestorationID.modalNavigation
        navigation.isNavigationBarHidden = true
        return navigation
    }
}

/// The restoration identifiers of the check-in app's controllers (CONTRACT.md names the first four).
package enum RestorationID {
    /// The tab bar at the root.
    package static let tabs = "TabViewController"
    /// The check-in tab.
    package static let checkIn = "CheckInViewController"
    /// The navigation controller the check-in modal is presented in.
    package static let modalNavigation = "CheckInModalNavigationController"
    /// The check-in modal.
    package static let modal = "CheckInModalViewController"
    /// The venues tab's navigation controller.
    package static let venuesNavigation = "VenuesNavigationController"
    /// The venue list.
    package static let venueList = "VenueListViewController"
    /// The venue list's table view.
    package static let venueTable = "VenueTableView"
    /// The check-in modal's note.
    package static let noteView = "NoteTextView"
    /// A venue's detail, pushed from the list.
    package static let venueDetail = "VenueDetailViewController"
}

extension CheckInAppDelegate {
    /// The running app delegate, reached from a restoration class through the coder.
    static func current(_ coder: StateCoder) -> CheckInAppDelegate? {
        coder.application?.delegate as? CheckInAppDelegate
    }
}
