public import RelaunchApp
internal import FoundationEssentials
internal import RelaunchContract
internal import RestorationKit

/// The app's state as `relaunchctl app state --json` shows it: the contract's common keys and the
/// countries app's own.
///
/// Absent values encode as JSON `null`, never as missing keys.
public struct CountriesState: Equatable, Sendable, Encodable {
    /// `launch.outcome` (`fresh`, `restored`, `discarded`) and `launch.reason`.
    public struct Launch: Equatable, Sendable, Encodable {
        /// `fresh`, `restored` or `discarded`.
        public var outcome: String
        /// Why saved state was discarded, or nil.
        public var reason: String?

        private enum Key: String, CodingKey { case outcome, reason }

        /// Encodes both keys, `reason` as null when absent.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// How the last launch went.
    public var launch: Launch
    /// `launching`, `active` or `background`.
    public var lifecycle: String
    /// Every restoration path in the hierarchy, parents first.
    public var paths: [String]
    /// The presented controller's path, or nil (the app presents nothing).
    public var presented: String?
    /// How each path was restored at the last launch.
    public var restoredVia: [String: String]
    /// How the last instance ended, when it was killed for a permission change.
    public var lastExit: LastExit?
    /// Each permission the app uses, as it last learned it.
    public var permissions: [String: String]
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
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings, numbers, booleans and nulls: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private enum CodingKeys: String, CodingKey {
        case launch, lifecycle, paths, presented, restoredVia, lastExit, permissions, buildNumber, selectedTab
        case selectedCapital, selectedCountry, countryDetail, firstVisibleCapital, scrollOffset, countryCount, amazing
    }

    /// Encodes every key; absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(launch, forKey: .launch)
        try container.encode(lifecycle, forKey: .lifecycle)
        try container.encode(paths, forKey: .paths)
        try container.encode(presented, forKey: .presented)
        try container.encode(restoredVia, forKey: .restoredVia)
        try container.encode(lastExit, forKey: .lastExit)
        try container.encode(permissions, forKey: .permissions)
        try container.encode(buildNumber, forKey: .buildNumber)
        try container.encode(selectedTab, forKey: .selectedTab)
        try container.encode(selectedCapital, forKey: .selectedCapital)
        try container.encode(selectedCountry, forKey: .selectedCountry)
        try container.encode(countryDetail, forKey: .countryDetail)
        try container.encode(firstVisibleCapital, forKey: .firstVisibleCapital)
        try container.encode(scrollOffset, forKey: .scrollOffset)
        try container.encode(countryCount, forKey: .countryCount)
        try container.encode(amazing, forKey: .amazing)
    }
}

extension CountriesApp {
    /// The state, as a value.
    public func state() -> CountriesState {
        let report = launchReport
        return CountriesState(
            launch: .init(outcome: report?.outcome.rawValue ?? "fresh", reason: report?.discardReason?.rawValue),
            lifecycle: lifecycle.rawValue,
            paths: application.window.restorationPaths.map { $0.joined(separator: "/") },
            presented: session.presentedPath,
            restoredVia: Dictionary((report?.restored ?? []).map { ($0.path, $0.via.rawValue) }, uniquingKeysWith: { $1 }),
            lastExit: lastExit,
            permissions: [Permission.location.rawValue: location.rawValue],
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
