internal import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Draws Banca as text in the phone frame every Relaunch app shares: the converter (or the camera
/// screen pushed over it) with a toolbar, and About or the currency list as a card over it, dimmed.
extension BancaApp {
    /// The current screen drawn as text for people.
    public func screen() -> String {
        PhoneScreen(
            status: PhoneScreen.spread(" 9:41  build \(buildNumber)", "camera \(camera.rawValue) · \(lifecycle.rawValue) "),
            body: scanStep.map(scanBody) ?? converterBody(), bottomBar: "   ⓘ about            ▣ scan            ⇅ swap",
            card: currencyList.map(currencyCard) ?? (about != nil ? aboutCard() : nil), dimsBehindCard: true
        ).draw()
    }

    private func converterBody() -> [String] {
        let (from, to) = (currency(.from), currency(.to))
        let amount = converter?.amount ?? Amount("")!
        return [
            " Banca", "",
            PhoneScreen.spread(" amount  \(amount.text.isEmpty ? "0" : amount.text)▏", "type amount "), "",
            PhoneScreen.spread(" from    \(from.id)  \(from.name)", "currencies:from "),
            PhoneScreen.spread(" to      \(to.id)  \(to.name)", "currencies:to "), "",
            " = \(amount.converted(from: from, to: to)) \(to.id)",
            " 1 \(from.id) = \(Amount.rate(from: from, to: to)) \(to.id)",
        ]
    }

    private func scanBody(_ step: ScanStep) -> [String] {
        let view: [String] = switch step {
        case .scanning: ["  ┌──────────────────┐", "  │      24.90       │", "  └──────────────────┘", "",
                         " ▣ Camera on: point it at a price.", "", " [capture]"]
        case .denied: [" Camera access is denied.", " Allow it in Settings to scan prices.", "", " [open-settings]"]
        }
        return [" ‹ Banca   (tap back)", "", " Scan a price", ""] + view
    }

    private func aboutCard() -> [String] {
        ["About Banca", ""]
            + PhoneScreen.wrapped(
                "A currency converter: type an amount, pick the two currencies, or scan a price with the camera.",
                width: PhoneScreen.cardLineWidth, lines: 3)
            + ["", "build \(buildNumber) · rates of \(Currency.ratesDate)", "", PhoneScreen.spread("", "[done]", width: PhoneScreen.cardLineWidth)]
    }

    private func currencyCard(_ list: CurrenciesViewController) -> [String] {
        let rows = list.visibleCurrencies.map { currency in
            PhoneScreen.spread(
                (currency.id == list.selectedCurrency?.id ? "✓ " : "  ") + "\(currency.id)  \(currency.name)",
                "currency:\(currency.id)", width: PhoneScreen.cardLineWidth)
        }
        let padding = Array(repeating: "", count: CurrenciesViewController.visibleRows - rows.count)
        let up = list.firstVisibleRow > 0 ? "[scroll-up]" : "           "
        let down = list.firstVisibleRow < list.lastFirstRow ? "[scroll-down]" : "             "
        return ["Currencies: convert \(list.side.rawValue)", ""] + rows + padding
            + ["", PhoneScreen.spread("\(up) \(down)", "[done]", width: PhoneScreen.cardLineWidth)]
    }
}
