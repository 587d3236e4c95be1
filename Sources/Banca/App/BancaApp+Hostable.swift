package import RelaunchApp
package import RelaunchContract
internal import RestorationKit

/// Banca under the Relaunch host library: it needs the camera to scan a price.
extension BancaApp: SessionHostedApp {
    /// The camera: scanning a price needs it.
    package static var permissions: [Permission] { [.camera] }

    /// Takes the camera permission (the only one the app reads).
    package func setPermission(_ permission: Permission, to state: PermissionState) {
        if permission == .camera { setCamera(state) }
    }

    /// Takes the two currencies as last saved.
    /// - Throws: `CurrencyPair.DataError` when they cannot be read (the app keeps EUR and USD).
    package func loadData(_ bytes: [UInt8]) throws {
        delegate.pair = try CurrencyPair(bytes: bytes, catalog: delegate.currencies)
    }

    /// What the current screen accepts: the taps on screen (none in the background), and the amount
    /// when the converter is in front.
    package func elements() -> [ScreenElement] {
        guard lifecycle == .active else { return [] }
        var elements = onScreenElements().map { ScreenElement(name: $0.name, isField: false, description: describe($0)) }
        if converterOnScreen {
            elements.append(ScreenElement(
                name: "amount", isField: true,
                description: "the amount to convert, e.g. 12.50 (at most \(Amount.maximumWholeDigits) digits and \(Amount.maximumDecimals) decimals)"))
        }
        return elements
    }

    /// A one-line description of the screen, e.g. `Showing currencies (to)`.
    package func statusLine() -> String {
        if lifecycle == .background { return "In the background, state preserved" }
        if let list = currencyList { return "Showing currencies (\(list.side.rawValue))" }
        if about != nil { return "Showing about" }
        if let step = scanStep { return "Showing scan (\(step.rawValue))" }
        return "Showing converter (\(pair.from) to \(pair.to))"
    }

    private func describe(_ element: Element) -> String {
        switch element {
        case .about: "show About Banca"
        case .currencies(let side): "pick the currency to convert \(side.rawValue)"
        case .swap: "swap the two currencies"
        case .scan: "scan a price with the camera"
        case .capture: "take the price the camera sees as the amount"
        case .openSettings: "open Settings to change the camera permission (the app goes to the background)"
        case .back: "go back to the converter"
        case .currency(let code): "pick \(code) (\(delegate.currency(code)?.name ?? code))"
        case .scrollUp: "scroll the list up"
        case .scrollDown: "scroll the list down"
        case .done: "close this screen"
        }
    }
}
