internal import RelaunchApp
package import RelaunchContract
internal import RestorationKit

/// The countries app under the Relaunch host library: it uses location, and keeps its defaults in
/// the host's data file.
extension CountriesApp: SessionHostedApp {
    /// Location: the settings tab shows it, and the app follows its changes in place.
    package static var permissions: [Permission] { [.location] }

    /// Takes the location permission (the only one the app reads).
    package func setPermission(_ permission: Permission, to state: PermissionState) {
        if permission == .location { setLocation(state) }
    }

    /// Takes the saved defaults (before `launch`, so the settings tab shows them when it loads).
    ///
    /// - Throws: `DefaultsError` when they cannot be read; the host keeps them aside and the app goes
    ///   on with its defaults.
    package func loadData(_ bytes: [UInt8]) throws {
        try defaults.load(bytes)
    }

    /// A one-line description of the screen, e.g. `Showing Canberra`.
    package func statusLine() -> String {
        if lifecycle == .background { return "In the background, state preserved" }
        switch selectedTab {
        case .countries: return countryDetail.map { "Showing \($0.capital)" } ?? "Showing countries"
        case .settings: return "Showing settings"
        }
    }
}
