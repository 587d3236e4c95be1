internal import RestorationKit

/// The countries app's delegate, as the seed writes it: it opts in to preservation and restoration,
/// and loads the data model and the storyboard in `willFinishLaunching`, before restoration, so that
/// every controller restoration looks for already exists (restored as `existing`).
final class CountriesAppDelegate: ApplicationDelegate {
    /// The key the build number is saved under in the app-level coder.
    static let buildNumberKey = "App-Build-Number"

    let buildNumber: String
    /// The table's data (the seed's plist), loaded before restoration.
    let countries: [Country]
    /// The settings (the seed's user defaults).
    let defaults: Defaults
    let storyboard: Storyboard

    init(buildNumber: String, countries: [Country], defaults: Defaults) {
        self.buildNumber = buildNumber
        self.countries = countries
        self.defaults = defaults
        storyboard = Self.mainStoryboard(countries: countries, defaults: defaults)
    }

    /// The seed's main storyboard: its scenes load at launch, before restoration.
    func applicationWillFinishLaunching(_ application: Application) {
        application.window.rootViewController = storyboard.instantiateInitialViewController()
    }

    func application(_ application: Application, shouldSaveApplicationState coder: inout StateCoder) -> Bool {
        coder.encode(buildNumber, forKey: Self.buildNumberKey)
        return true
    }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateCoder) -> Bool {
        coder.decodeString(forKey: Self.buildNumberKey) == buildNumber
    }

    /// The storyboard, its scenes' storyboard ids reused as restoration identifiers as the seed does.
    static func mainStoryboard(countries: [Country], defaults: Defaults) -> Storyboard {
        let text = """
            storyboard Main
            initial \(RestorationID.tabs)
            scene \(RestorationID.tabs) TabBarController use-storyboard-id
              tab \(RestorationID.countriesNavigation)
              tab \(RestorationID.settingsNavigation)
            scene \(RestorationID.countriesNavigation) NavigationController use-storyboard-id
              root \(RestorationID.countriesTableController)
            scene \(RestorationID.countriesTableController) CountriesTableViewController use-storyboard-id
              push \(RestorationID.country) segue \(Segue.showCountry)
            scene \(RestorationID.country) CountryViewController use-storyboard-id
            scene \(RestorationID.settingsNavigation) NavigationController use-storyboard-id
              root \(RestorationID.settings)
            scene \(RestorationID.settings) SettingsViewController use-storyboard-id
            """
        do {
            return try Storyboard(text: text, classes: [
                "CountriesTableViewController": { CountriesTableViewController(countries: countries) },
                "CountryViewController": { CountryViewController() },
                "SettingsViewController": { SettingsViewController(defaults: defaults) },
            ])
        } catch {
            // The text above is fixed and tested; a fault in it is a programming error.
            fatalError("the countries storyboard does not parse: \(error)")
        }
    }

    /// The running app delegate, reached from a restoration class through the coder.
    static func current(_ coder: StateCoder) -> CountriesAppDelegate? {
        coder.application?.delegate as? CountriesAppDelegate
    }
}

/// The storyboard's segues.
enum Segue {
    /// From the table to a country, pushed.
    static let showCountry = "showCountry"
}

/// The restoration identifiers (the storyboard ids) of the countries app's controllers and views.
package enum RestorationID {
    /// The tab bar at the root.
    package static let tabs = "TabBarController"
    /// The countries tab's navigation controller.
    package static let countriesNavigation = "CountriesNavigationController"
    /// The countries table's controller.
    package static let countriesTableController = "CountriesTableViewController"
    /// The countries table view (it saves the selection and scroll position).
    package static let countriesTable = "CountriesTableView"
    /// A country's capital, pushed from the table.
    package static let country = "CountryViewController"
    /// The settings tab's navigation controller.
    package static let settingsNavigation = "SettingsNavigationController"
    /// The settings.
    package static let settings = "SettingsViewController"
}
