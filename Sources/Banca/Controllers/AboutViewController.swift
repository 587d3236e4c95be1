internal import RestorationKit

/// About Banca, presented in `AboutNC`; it comes back by its restoration class (the seed's
/// `RTAboutViewController`), and `AboutNC` through the app delegate.
final class AboutViewController: ViewController, ViewControllerRestoration {
    override init() {
        super.init()
        restorationIdentifier = RestorationID.about
        restorationClass = AboutViewController.self
        title = "About"
    }

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        AboutViewController()
    }
}
