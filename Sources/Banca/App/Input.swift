internal import RelaunchContract

/// Input Banca cannot take; every message says what is accepted.
package enum BancaInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The element is not one the app has.
    case unknownElement(String)
    /// `currency:CODE` names no currency.
    case unknownCurrency(String, accepted: [String])
    /// The field is not one the app has.
    case unknownField(String)
    /// The amount is not a plain decimal number of the accepted size.
    case invalidAmount(String)
    /// The element exists but is not on screen now.
    case notOnScreen(String, onScreen: [String])
    /// The converter is not on screen, so nothing can be typed.
    case amountNotOnScreen
    /// The app is in the background and takes no input.
    case inBackground

    /// Every element name, for messages.
    package static let acceptedElements =
        "about, currencies:from, currencies:to, swap, scan, capture, open-settings, back, currency:CODE, scroll-up, scroll-down, done"

    /// What went wrong and what to do, in one line.
    package var description: String {
        switch self {
        case .unknownElement(let element):
            "unknown element \(Echo.quoted(element)); accepted: \(Self.acceptedElements)"
        case .unknownCurrency(let code, let accepted):
            "unknown currency \(Echo.quoted(code)); accepted: \(accepted.map { "currency:\($0)" }.joined(separator: " "))"
        case .unknownField(let field):
            "unknown field \(Echo.quoted(field)); accepted: amount"
        case .invalidAmount(let text):
            "amount \(Echo.quoted(text)) is not accepted; give a number such as 12 or 12.50 "
                + "(at most \(Amount.maximumWholeDigits) digits, \(Amount.maximumDecimals) decimals, or nothing to clear it)"
        case .notOnScreen(let element, let onScreen):
            "\(Echo.quoted(element)) is not on screen now; on screen: \(onScreen.joined(separator: ", "))"
        case .amountNotOnScreen:
            "the converter is not on screen; tap done or back before typing amount"
        case .inBackground:
            "the app is in the background and takes no input; send foreground first"
        }
    }
}

/// Something the user can tap.
enum Element: Equatable {
    case about
    case currencies(CurrencyPair.Side)
    case swap
    case scan
    case capture
    case openSettings
    case back
    case currency(String)
    case scrollUp
    case scrollDown
    case done

    private static let plain: [String: Element] = [
        "about": .about, "swap": .swap, "scan": .scan, "capture": .capture, "open-settings": .openSettings, "back": .back,
        "scroll-up": .scrollUp, "scroll-down": .scrollDown, "done": .done,
    ]

    init(parsing text: String) throws(BancaInputError) {
        if let element = Self.plain[text] {
            self = element
        } else if text.hasPrefix("currencies:"), let side = CurrencyPair.Side(rawValue: String(text.dropFirst(11))) {
            self = .currencies(side)
        } else if text.hasPrefix("currency:"), text.count > 9 {
            self = .currency(String(text.dropFirst(9)))
        } else {
            throw .unknownElement(text)
        }
    }

    /// Its name in `tap ELEMENT`.
    var name: String {
        switch self {
        case .currencies(let side): "currencies:\(side.rawValue)"
        case .currency(let code): "currency:\(code)"
        default: Self.plain.first { $0.value == self }?.key ?? ""
        }
    }
}
