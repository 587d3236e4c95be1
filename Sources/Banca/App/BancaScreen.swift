internal import RelaunchApp
internal import RelaunchContract
internal import RestorationKit

/// Draws Banca as text in the phone frame every Relaunch app shares: the converter (or the camera
/// screen pushed over it) with a toolbar, and About or the currency list as a card over it, dimmed.
extension BancaApp {
    /// The current screen drawn as text for people.
    package func screen() -> String {
        PhoneFrame(
            statusLeft: " 9:41  build \(buildNumber)", statusRight: "camera \(camera.rawValue) · \(lifecycle.rawValue) ",
            body: scanStep.map(scanBody) ?? converterBody(), bar: "   ⓘ about            ▣ scan            ⇅ swap",
            card: currencyList.map(currencyCard) ?? (about != nil ? aboutCard() : nil), dimsBehindCard: true
        ).draw()
    }

    private func converterBody() -> [String] {
        let (from, to) = (currency(.from), currency(.to))
        let amount = converter?.amount ?? Amount("")!
        return [
            " Banca", "",
            PhoneFrame.row(" amount  \(amount.text.isEmpty ? "0" : amount.text)▏", "type amount "), "",
            PhoneFrame.row(" from    \(from.id)  \(from.name)", "currencies:from "),
            PhoneFrame.row(" to      \(to.id)  \(to.name)", "currencies:to "), "",
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
            + PhoneFrame.wrapped(
                "A currency converter: type an amount, pick the two currencies, or scan a price with the camera.",
                width: PhoneFrame.cardTextWidth, lines: 3)
            + ["", "build \(buildNumber) · rates of \(Currency.ratesDate)", "", PhoneFrame.row("", "[done]", width: PhoneFrame.cardTextWidth)]
    }

    private func currencyCard(_ list: CurrenciesViewController) -> [String] {
        let rows = list.visibleCurrencies.map { currency in
            PhoneFrame.row(
                (currency.id == list.selectedCurrency?.id ? "✓ " : "  ") + "\(currency.id)  \(currency.name)",
                "currency:\(currency.id)", width: PhoneFrame.cardTextWidth)
        }
        let padding = Array(repeating: "", count: CurrenciesViewController.visibleRows - rows.count)
        let up = list.firstVisibleRow > 0 ? "[scroll-up]" : "           "
        let down = list.firstVisibleRow < list.lastFirstRow ? "[scroll-down]" : "             "
        return ["Currencies: convert \(list.side.rawValue)", ""] + rows + padding
            + ["", PhoneFrame.row("\(up) \(down)", "[done]", width: PhoneFrame.cardTextWidth)]
    }
}
