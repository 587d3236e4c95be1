package import RelaunchApp
package import RelaunchContract
package import RestorationKit

/// The countries app of seed 004 as a library: the executable feeds it input, saved state and its
/// defaults, and does the I/O its effects ask for.
///
/// A tab bar with a countries table in a navigation controller (selecting a row pushes
/// `CountryViewController`, which shows the capital) and a settings tab whose switch lives in the
/// app's defaults. Restored: the selected tab, the table's scroll position and selection by capital,
/// and the navigation stack. It follows the location permission in place (a change of it kills no
/// app under the ios policy). Not thread-safe: use it from one task or actor.
package final class CountriesApp {
    /// The running build; archives from another build are discarded.
    package let buildNumber: String
    /// The location permission as the permission daemon last said.
    package private(set) var location: PermissionState
    /// How the last instance ended, when it was killed for a permission change.
    package var lastExit: LastExit?

    /// The session that launches, restores and preserves the app.
    package let session: RestorationSession
    let delegate: CountriesAppDelegate

    /// An app for `buildNumber`, not launched yet.
    ///
    /// - Parameters:
    ///   - buildNumber: The running build (saved in every archive, compared at launch).
    ///   - location: The location permission at launch, from the permission daemon.
    ///   - countries: The table's data (the data file's rows, less any deleted since).
    ///   - limits: Archive size limits.
    ///   - wallClock: The time in microseconds since the Unix epoch, for archive headers.
    ///   - uptime: A monotonic time since any fixed origin, to time launches and preservations.
    package init(
        buildNumber: String, location: PermissionState, countries: [Country] = Country.catalog,
        limits: ArchiveLimits = .default, wallClock: @escaping @Sendable () -> UInt64 = WallClock.microseconds,
        uptime: @escaping @Sendable () -> Duration = WallClock.uptime
    ) {
        self.buildNumber = buildNumber
        self.location = location
        delegate = CountriesAppDelegate(buildNumber: buildNumber, countries: countries, defaults: Defaults())
        var registry = RestorationRegistry()
        registry.register(CountryViewController.self)
        registry.register(delegate.storyboard)
        session = RestorationSession(
            application: Application(buildVersion: buildNumber, delegate: delegate, registry: registry),
            limits: limits, wallClock: wallClock, uptime: uptime)
    }

    /// The last launch's report, nil before `launch`.
    package var launchReport: LaunchReport? { session.launchReport }
    /// The settings (the seed's user defaults).
    package var defaults: Defaults { delegate.defaults }
    /// The table's data.
    package var countries: [Country] { delegate.countries }

    /// Takes the location permission; the screen and the state show it at once, without a relaunch.
    package func setLocation(_ state: PermissionState) {
        location = state
    }

    // MARK: The hierarchy, as the app knows it

    var application: Application { session.application }
    var tabs: TabBarController? { application.window.rootViewController as? TabBarController }
    var countriesNavigation: NavigationController? { tab(RestorationID.countriesNavigation) }
    var settingsNavigation: NavigationController? { tab(RestorationID.settingsNavigation) }
    var table: CountriesTableViewController? { countriesNavigation?.viewControllers.first as? CountriesTableViewController }
    var countryDetail: CountryViewController? { countriesNavigation?.topViewController as? CountryViewController }
    var settings: SettingsViewController? { settingsNavigation?.viewControllers.first as? SettingsViewController }

    var selectedTab: Tab {
        tabs?.selectedViewController?.restorationIdentifier == RestorationID.settingsNavigation ? .settings : .countries
    }

    private func tab(_ identifier: String) -> NavigationController? {
        tabs?.viewControllers.first { $0.restorationIdentifier == identifier } as? NavigationController
    }
}
