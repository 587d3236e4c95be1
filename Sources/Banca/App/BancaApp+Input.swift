package import RelaunchApp
package import RelaunchContract
internal import RestorationKit

/// Taps, typing and the lifecycle.
extension BancaApp {
    /// How many rows `scroll-up` and `scroll-down` move the currency list.
    static let scrollStep = 4

    /// Taps `element` (see `BancaInputError.acceptedElements`).
    ///
    /// - Returns: What the host must do: picking or swapping currencies saves the data model;
    ///   `open-settings` sends the app to the background, so the host preserves state.
    /// - Throws: `BancaInputError` for an unknown element or currency, one not on screen now, or in the background.
    @discardableResult
    package func tap(_ element: String) throws(BancaInputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        let parsed = try Element(parsing: element)
        if case .currency(let code) = parsed, delegate.currency(code) == nil {
            throw .unknownCurrency(code, accepted: delegate.currencies.map(\.id))
        }
        let onScreen = onScreenElements()
        guard onScreen.contains(parsed) else { throw .notOnScreen(element, onScreen: onScreen.map(\.name)) }

        switch parsed {
        case .about:
            converter?.presentAbout()
        case .currencies(let side):
            converter?.presentCurrencies(for: side, currencies: delegate.currencies, selected: pair[side])
        case .swap:
            delegate.pair = CurrencyPair(from: pair.to, to: pair.from)
            return [.saveData(pair.bytes)]
        case .scan:
            converter?.pushScan()
        case .capture:
            converter?.amount = Amount(ScanViewController.scannedPrice) ?? Amount("")!
            mainNavigation?.popViewController()
        case .openSettings:
            return [.openSettings(.camera)] + background()
        case .back:
            mainNavigation?.popViewController()
        case .currency(let code):
            guard let list = currencyList else { return [] }
            list.select(code)
            delegate.pair[list.side] = code
            return [.saveData(pair.bytes)]
        case .scrollUp:
            currencyList?.scroll(by: -Self.scrollStep)
        case .scrollDown:
            currencyList?.scroll(by: Self.scrollStep)
        case .done:
            converter?.dismiss()
        }
        return []
    }

    /// Types `text` into `field` (only `amount`, on the converter), replacing what was there.
    ///
    /// - Throws: `BancaInputError` for an unknown field, an amount that is not a plain number of the
    ///   accepted size, the converter not on screen, or in the background.
    @discardableResult
    package func type(_ field: String, _ text: String) throws(BancaInputError) -> [AppEffect] {
        guard lifecycle == .active else { throw .inBackground }
        guard field == "amount" else { throw .unknownField(field) }
        guard let converter, converterOnScreen else { throw .amountNotOnScreen }
        guard let amount = Amount(text) else { throw .invalidAmount(text) }
        converter.amount = amount
        return []
    }

    /// Whether the converter itself is in front (nothing pushed or presented over it).
    var converterOnScreen: Bool { scan == nil && converter?.presentedViewController == nil }

    /// What can be tapped now.
    func onScreenElements() -> [Element] {
        if let list = currencyList {
            var elements = list.visibleCurrencies.map { Element.currency($0.id) }
            if list.firstVisibleRow > 0 { elements.append(.scrollUp) }
            if list.firstVisibleRow < list.lastFirstRow { elements.append(.scrollDown) }
            return elements + [.done]
        }
        if about != nil { return [.done] }
        if let step = scanStep { return [step == .scanning ? .capture : .openSettings, .back] }
        return [.currencies(.from), .currencies(.to), .swap, .about, .scan]
    }

    /// What the camera screen shows, nil when it is not pushed.
    var scanStep: ScanStep? {
        scan == nil ? nil : camera == .allowed ? .scanning : .denied
    }

    /// Takes the camera permission (the camera screen follows it).
    package func setCamera(_ state: PermissionState) { camera = state }
}

/// What the camera screen shows.
package enum ScanStep: String, Sendable {
    /// The camera, pointed at a price.
    case scanning
    /// That camera access is denied, with a way to Settings.
    case denied
}
