package import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// The app's state as `relaunchctl app state --json` shows it: the contract's common keys and the
/// countries app's own.
///
/// Absent values encode as JSON `null`, never as missing keys.
package struct CountriesState: Equatable, Sendable, Encodable {
    /// The keys every app has.
    package var common: CommonAppState
    /// The running build.
    package var buildNumber: String
    /// `countries` or `settings`.
    package var selectedTab: String
    /// The selected row's capital (its model identifier), or nil.
    package var selectedCapital: String?
    /// The selected row's country, or nil.
    package var selectedCountry: String?
    /// The capital the pushed `CountryViewController` shows, or nil when the table is on top.
    package var countryDetail: String?
    /// The first visible row's capital (the scroll position, by model identifier).
    package var firstVisibleCapital: String?
    /// The table's content offset, in points.
    package var scrollOffset: Int
    /// How many rows the table has.
    package var countryCount: Int
    /// The settings tab's switch (from the defaults, not the archive).
    package var amazing: Bool

    /// The state as one line of JSON with sorted keys.
    package var json: String { CommonAppState.json(self) }

    /// Encodes the common keys, then the app's own; absent values as `null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StateKey.self)
        try common.encode(into: &container)
        try container.encode(buildNumber, forKey: "buildNumber")
        try container.encode(selectedTab, forKey: "selectedTab")
        try container.encode(selectedCapital, forKey: "selectedCapital")
        try container.encode(selectedCountry, forKey: "selectedCountry")
        try container.encode(countryDetail, forKey: "countryDetail")
        try container.encode(firstVisibleCapital, forKey: "firstVisibleCapital")
        try container.encode(scrollOffset, forKey: "scrollOffset")
        try container.encode(countryCount, forKey: "countryCount")
        try container.encode(amazing, forKey: "amazing")
    }
}

extension CountriesApp {
    /// The state, as a value.
    package func state() -> CountriesState {
        CountriesState(
            common: CommonAppState(session: session, lastExit: lastExit, permissions: [.location: location]),
            buildNumber: buildNumber,
            selectedTab: selectedTab.rawValue,
            selectedCapital: table?.selectedCountry?.capital,
            selectedCountry: table?.selectedCountry?.name,
            countryDetail: countryDetail?.capital,
            firstVisibleCapital: table?.visibleCountries.first?.capital,
            scrollOffset: Int(table?.tableView.contentOffset.y ?? 0),
            countryCount: countries.count,
            amazing: defaults.amazing)
    }

    /// The state as JSON with the contract's common keys and the app's own (sorted; absent values null).
    package func stateJSON() -> String { state().json }
}
