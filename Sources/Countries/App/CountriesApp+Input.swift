package import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Taps and the lifecycle.
extension CountriesApp {
    /// Taps `element` (`tab:countries`, `tab:settings`, `country:CAPITAL`, `back`, `scroll-up`,
    /// `scroll-down`, `switch`, `open-settings`).
    ///
    /// - Returns: What the host must do: `switch` saves the defaults; `open-settings` sends the app to
    ///   the background, so the host preserves state.
    /// - Throws: `InputError` for an unknown element or capital, one not on screen now, or when in the background.
    @discardableResult
    package func tap(_ element: String) throws(InputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        let parsed = try Element(parsing: element)
        if case .country(let capital) = parsed, table?.row(ofCapital: capital) == nil { throw .unknownCountry(capital) }
        let onScreen = onScreenElements()
        guard onScreen.contains(parsed) else { throw .notOnScreen(element, onScreen: onScreen.map(\.name)) }

        switch parsed {
        case .tab(let tab):
            if tab == selectedTab, tab == .countries { countriesNavigation?.setViewControllers(table.map { [$0] } ?? []) }
            tabs?.select(restorationIdentifier: tab == .countries ? RestorationID.countriesNavigation : RestorationID.settingsNavigation)
        case .country(let capital):
            guard let table, let row = table.row(ofCapital: capital) else { return [] }
            table.selectedRow = row
            // The seed's segue and prepareForSegue: the destination gets its capital.
            (delegate.storyboard.performSegue(Segue.showCountry, from: table) as? CountryViewController)?.capital = capital
        case .back:
            countriesNavigation?.popViewController()
        case .scrollUp:
            table?.scroll(pages: -1)
        case .scrollDown:
            table?.scroll(pages: 1)
        case .toggleSwitch:
            settings?.toggleAmazing()
            return [.saveData(defaults.bytes)]
        case .openSettings:
            return [.openSettings(.location)] + background()
        }
        return []
    }

    /// Nothing can be typed: the app has no fields.
    ///
    /// - Throws: `InputError.noFields` always (`.inBackground` in the background).
    package func type(_ field: String, _ text: String) throws(InputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        throw .noFields(field)
    }

    /// What can be tapped now: the tabs, then the selected tab's screen.
    func onScreenElements() -> [Element] {
        var elements: [Element] = [.tab(.countries), .tab(.settings)]
        switch selectedTab {
        case .countries where countryDetail != nil:
            elements.append(.back)
        case .countries:
            guard let table else { break }
            if table.firstVisibleRow > 0 { elements.append(.scrollUp) }
            if table.firstVisibleRow < table.lastScrollableRow { elements.append(.scrollDown) }
            elements += table.visibleCountries.map { .country($0.capital) }
        case .settings:
            elements += [.toggleSwitch, .openSettings]
        }
        return elements
    }

    /// What the current screen accepts, so scripts and people can discover it (none in the background).
    package func elements() -> [ScreenElement] {
        guard lifecycle == .active else { return [] }
        return onScreenElements().map { ScreenElement(name: $0.name, isField: false, description: $0.summary) }
    }
}
