internal import RestorationKit

/// The check-in tab: a button that presents the check-in modal.
final class CheckInViewController: ViewController, ViewControllerRestoration {
    override init() {
        super.init()
        restorationIdentifier = RestorationID.checkIn
        restorationClass = CheckInViewController.self
        title = "Check In"
    }

    /// The modal it presents, if any.
    var modal: CheckInModalViewController? {
        (presentedViewController as? NavigationController)?.viewControllers.first as? CheckInModalViewController
    }

    /// Presents the check-in modal in a navigation controller with its bar hidden, as the seed does.
    func checkIn(venue: String) {
        let modal = CheckInModalViewController()
        modal.form.venue = venue
        let navigation = NavigationController(rootViewController: modal)
        navigation.restorationIdentifier = RestorationID.modalNavigation
        navigation.isNavigationBarHidden = true
        present(navigation, animated: true)
    }

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        CheckInViewController()
    }
}
