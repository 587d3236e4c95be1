public import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// The app's state as `relaunchctl app state --json` shows it: the contract's common keys and the
/// countries app's own.
///
/// Absent values encode as JSON `null`, never as missing keys.
public struct CountriesState: Equatable, Sendable, Encodable {
    /// The keys every app has.
    public var common: CommonAppState
    /// The running build.
    public var buildNumber: String
    /// `countries` or `settings`.
    public var selectedTab: String
    /// The selected row's capital (its model identifier), or nil.
    public var selectedCapital: String?
    /// The selected row's country, or nil.
    public var selectedCountry: String?
    /// The capital the pushed `CountryViewController` shows, or nil when the table is on top.
    public var countryDetail: String?
    /// The first visible row's capital (the scroll position, by model identifier).
    public var firstVisibleCapital: String?
    /// The table's content offset, in points.
    public var scrollOffset: Int
    /// How many rows the table has.
    public var countryCount: Int
    /// The settings tab's switch (from the defaults, not the archive).
    public var amazing: Bool

    /// The state as one line of JSON with sorted keys.
    public var json: String { CommonAppState.json(self) }

    /// Encodes the common keys, then the app's own; absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
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
    public func state() -> CountriesState {
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
    public func stateJSON() -> String { state().json }
}
