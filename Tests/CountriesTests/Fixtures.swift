@testable import Countries
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// The app's paths, joined.
enum CountriesPath {
    static let tabs = "TabBarController"
    static let countriesNavigation = "TabBarController/CountriesNavigationController"
    static let table = countriesNavigation + "/CountriesTableViewController"
    static let country = countriesNavigation + "/CountryViewController"
    static let settingsNavigation = "TabBarController/SettingsNavigationController"
    static let settings = settingsNavigation + "/SettingsViewController"
}

extension FakeHost<CountriesApp> {
    /// A new instance, as systemd's relaunch makes it: defaults loaded, then launched from the archive.
    func relaunch(
        build: String = "1", location: PermissionState = .allowed, countries: [Country] = Country.catalog
    ) throws -> CountriesApp {
        try relaunch(CountriesApp(buildNumber: build, location: location, countries: countries, wallClock: { 1_000 }))
    }
}

/// The state JSON without the keys a relaunch may change: launch, lifecycle, restoredVia, lastExit.
func comparableJSON(_ state: CountriesState) -> String {
    var state = state
    (state.common.launchOutcome, state.common.launchReason) = ("-", nil)
    state.common.lifecycle = "-"
    state.common.restoredVia = [:]
    state.common.lastExit = nil
    return state.json
}

/// A fresh app, launched.
func launchedApp(location: PermissionState = .allowed, countries: [Country] = Country.catalog) -> CountriesApp {
    let app = CountriesApp(buildNumber: "1", location: location, countries: countries, wallClock: { 1_000 })
    app.launch(candidates: [], restoringMark: MemoryRestoringMark())
    return app
}
