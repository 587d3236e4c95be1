@testable import Countries
import RelaunchApp
import RelaunchContract
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

/// What the host keeps for the app between two launches: the saved archive and the saved defaults,
/// and what it does with the effects of input.
final class FakeHost {
    var archive: [UInt8]?
    var data: [UInt8]?
    var terminated = false

    /// Carries out `effects` as RelaunchHost does (preserve, save data, discard, terminate).
    func perform(_ effects: [AppEffect], of app: CountriesApp) throws {
        for effect in effects {
            switch effect {
            case .preserveState: archive = try app.preserve().bytes
            case .saveData(let bytes): data = bytes
            case .discardSavedState: archive = nil
            case .terminate: terminated = true
            case .lifecycleChanged, .openSettings: break
            }
        }
    }

    /// A new instance, as systemd's relaunch makes it: defaults loaded, then launched from the archive.
    func relaunch(
        build: String = "1", location: PermissionState = .allowed, countries: [Country] = Country.catalog
    ) throws -> CountriesApp {
        let app = CountriesApp(buildNumber: build, location: location, countries: countries, wallClock: { 1_000 })
        if let data { try app.loadData(data) }
        app.launch(
            candidates: archive.map { [ArchiveCandidate(source: "file", bytes: $0)] } ?? [],
            restoringMark: MemoryRestoringMark())
        terminated = false
        return app
    }

    /// Taps `element` on `app` and carries out the effects.
    func tap(_ app: CountriesApp, _ element: String) throws {
        try perform(try app.tap(element), of: app)
    }

    /// Sends `app` to the background (it preserves).
    func background(_ app: CountriesApp) throws {
        try perform(app.background(), of: app)
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
