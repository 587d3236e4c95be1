internal import RestorationKit

/// Banca's app delegate, as the seed writes it: `MainNC` is the window's root, made at launch before
/// restoration (as a main storyboard would), and the fallback of restoration returns it for `MainNC`
/// and new navigation controllers for the modal `AboutNC` and `CurrenciesNC`, which have no
/// restoration class; their roots come back through their own restoration classes.
final class BancaAppDelegate: ApplicationDelegate {
    /// The key the build number is saved under in the app-level coder.
    static let buildNumberKey = "App-Build-Number"

    let buildNumber: String
    let currencies: [Currency]
    /// The two currencies: the data model, read before launch and saved apart from the archive.
    var pair = CurrencyPair.initial

    init(buildNumber: String, currencies: [Currency]) {
        self.buildNumber = buildNumber
        self.currencies = currencies
    }

    /// The currency with `code`, if the catalog has it.
    func currency(_ code: String) -> Currency? { currencies.first { $0.id == code } }

    /// The on-load UI: `MainNC` with the converter, before anything is restored into it.
    func applicationWillFinishLaunching(_ application: Application) {
        guard application.window.rootViewController == nil else { return }
        let main = NavigationController(rootViewController: ConverterViewController())
        main.restorationIdentifier = RestorationID.mainNavigation
        application.window.rootViewController = main
    }

    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool {
        coder.encode(buildNumber, forKey: Self.buildNumberKey)
        return true
    }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        coder.decodeString(forKey: Self.buildNumberKey) == buildNumber
    }

    /// The seed's `application:viewControllerWithRestorationIdentifierPath:coder:`: navigation
    /// controllers here; the controllers in them each come back through their own classes.
    func application(
        _ application: Application, viewControllerWithRestorationIdentifierPath identifierComponents: [String],
        coder: StateCoder
    ) -> ViewController? {
        switch identifierComponents.last {
        case RestorationID.mainNavigation:
            return application.window.rootViewController
        case RestorationID.aboutNavigation, RestorationID.currenciesNavigation:
            let navigation = NavigationController()
            navigation.restorationIdentifier = identifierComponents.last
            return navigation
        default:
            return nil
        }
    }
}

/// The restoration identifiers of Banca's controllers and views (CONTRACT.md names the navigation controllers).
package enum RestorationID {
    /// The window's root navigation controller.
    package static let mainNavigation = "MainNC"
    /// The converter, the main navigation controller's root.
    package static let converter = "ConverterViewController"
    /// The camera screen, pushed to scan a price.
    package static let scan = "ScanViewController"
    /// The navigation controller About is presented in.
    package static let aboutNavigation = "AboutNC"
    /// About.
    package static let about = "AboutViewController"
    /// The navigation controller the currency list is presented in.
    package static let currenciesNavigation = "CurrenciesNC"
    /// The currency list.
    package static let currencies = "CurrenciesViewController"
    /// The currency list's table view (it saves the selection and scroll position).
    package static let currencyTable = "CurrencyTableView"
}

extension BancaAppDelegate {
    /// The running app delegate, reached from a restoration class through the coder.
    static func current(_ coder: StateCoder) -> BancaAppDelegate? {
        coder.application?.delegate as? BancaAppDelegate
    }
}
