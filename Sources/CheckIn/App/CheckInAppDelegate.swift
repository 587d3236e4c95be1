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
