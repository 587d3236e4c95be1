internal import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Draws the screen as text in the phone frame every Relaunch app shares: the status line, the
/// selected tab's screen (the table, a country's capital, or the settings) and the tab bar.
struct CountriesScreen {
    /// Everything the drawing shows, taken from the app.
    struct Model {
        var lifecycle: String
        var location: String
        var buildNumber: String
        var selectedTab: Tab
        var countryCount: Int
        var firstVisibleRow: Int
        var visible: [Country]
        var selectedCapital: String?
        var canScrollUp: Bool
        var canScrollDown: Bool
        var detail: Country?
        var amazing: Bool
    }

    let model: Model

    func draw() -> String {
        PhoneFrame(
            statusLeft: " 9:41", statusRight: "location \(model.location) · \(model.lifecycle) ", body: body(), bar: tabBar()
        ).draw()
    }

    private func body() -> [String] {
        switch model.selectedTab {
        case .countries:
            if let country = model.detail {
                return [" ‹ Countries                    tap back", "", " \(country.name)", "", " Capital", "   \(country.capital)"]
            }
            return table()
        case .settings:
            return [
                " Settings", "",
                PhoneFrame.row(" Amazing", (model.amazing ? "[■ on ]" : "[ off□]") + " switch "), "",
                PhoneFrame.row(" Location", model.location + " "),
                "   tap open-settings to change it", "",
                " Build \(model.buildNumber)",
            ]
        }
    }

    private func table() -> [String] {
        let first = model.visible.isEmpty ? 0 : model.firstVisibleRow + 1
        let header = PhoneFrame.row(
            " Countries", "\(first)–\(model.firstVisibleRow + model.visible.count) of \(model.countryCount) ")
        let rows = model.visible.map { country in
            let marker = country.capital == model.selectedCapital ? " ▸ " : "   "
            let capital = country.capital + " "
            let room = PhoneFrame.width - marker.count - capital.count - 1
            let name = country.name.count > room ? String(country.name.prefix(max(1, room - 1))) + "…" : country.name
            return PhoneFrame.row(marker + name, capital)
        }
        let hints = [model.canScrollUp ? "↑ scroll-up" : nil, model.canScrollDown ? "↓ scroll-down" : nil].compactMap { $0 }
        let footer = hints.isEmpty ? "" : " " + hints.joined(separator: "   ")
        return [header, " tap country:CAPITAL to see it"] + rows
            + Array(repeating: "", count: CountriesTableViewController.visibleRows - rows.count) + [footer]
    }

    private func tabBar() -> String {
        let countries = model.selectedTab == .countries ? "[■ Countries]" : " □ Countries "
        let settings = model.selectedTab == .settings ? "[■ Settings]" : " □ Settings "
        return " \(countries)   \(settings)   tab:NAME"
    }
}

extension CountriesApp {
    /// The location state as the screen says it: "approximate" when precise location is off (the
    /// app keeps running: under ios a location change is seen in place).
    static func shown(_ location: PermissionState) -> String {
        switch location {
        case .whileUsingApproximate: "approximate"
        case .alwaysApproximate: "always, approximate"
        default: location.rawValue
        }
    }

    /// The current screen drawn as text for people.
    package func screen() -> String {
        let table = self.table
        return CountriesScreen(
            model: .init(
                lifecycle: lifecycle.rawValue, location: Self.shown(location), buildNumber: buildNumber,
                selectedTab: selectedTab, countryCount: countries.count, firstVisibleRow: table?.firstVisibleRow ?? 0,
                visible: Array(table?.visibleCountries ?? []), selectedCapital: table?.selectedCountry?.capital,
                canScrollUp: (table?.firstVisibleRow ?? 0) > 0,
                canScrollDown: table.map { $0.firstVisibleRow < $0.lastScrollableRow } ?? false,
                detail: countryDetail.flatMap { detail in countries.first { $0.capital == detail.capital } },
                amazing: defaults.amazing)
        ).draw()
    }
}
