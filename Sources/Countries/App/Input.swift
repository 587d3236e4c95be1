internal import RelaunchContract

/// Input the app cannot take; every message says what is accepted.
package enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The element is not one the app has.
    case unknownElement(String)
    /// `country:CAPITAL` names no capital in the data.
    case unknownCountry(String)
    /// The element exists but is not on screen now.
    case notOnScreen(String, onScreen: [String])
    /// The app has no field to type into.
    case noFields(String)
    /// The app is in the background and takes no input.
    case inBackground

    /// Every element name, for messages.
    package static let acceptedElements =
        "tab:countries, tab:settings, country:CAPITAL, back, scroll-up, scroll-down, switch, open-settings"

    /// What went wrong and what to do, in one line.
    package var description: String {
        switch self {
        case .unknownElement(let element):
            "unknown element \(Echo.quoted(element)); accepted: \(Self.acceptedElements)"
        case .unknownCountry(let capital):
            "no country has the capital \(Echo.quoted(capital)); accepted: country:CAPITAL of a row on screen (see elements)"
        case .notOnScreen(let element, let onScreen):
            "\(Echo.quoted(element)) is not on screen now; on screen: \(onScreen.joined(separator: ", "))"
        case .noFields(let field):
            "unknown field \(Echo.quoted(field)); countries-demo has no fields to type into, only taps: \(Self.acceptedElements)"
        case .inBackground:
            "the app is in the background and takes no input; send foreground first"
        }
    }
}

/// A tab of the root tab bar, by its name in `tap tab:NAME` and the state JSON.
package enum Tab: String, Sendable, CaseIterable {
    /// The countries table and its pushed capital.
    case countries
    /// The settings and their switch.
    case settings
}

/// Something the user can tap.
enum Element: Equatable {
    case tab(Tab)
    case country(String)
    case back
    case scrollUp
    case scrollDown
    case toggleSwitch
    case openSettings

    init(parsing text: String) throws(InputError) {
        switch text {
        case "back": self = .back
        case "scroll-up": self = .scrollUp
        case "scroll-down": self = .scrollDown
        case "switch": self = .toggleSwitch
        case "open-settings": self = .openSettings
        default:
            if text.hasPrefix("tab:"), let tab = Tab(rawValue: String(text.dropFirst(4))) {
                self = .tab(tab)
            } else if text.hasPrefix("country:"), text.count > 8 {
                self = .country(String(text.dropFirst(8)))
            } else {
                throw .unknownElement(text)
            }
        }
    }

    /// Its name in `tap ELEMENT`.
    var name: String {
        switch self {
        case .tab(let tab): "tab:\(tab.rawValue)"
        case .country(let capital): "country:\(capital)"
        case .back: "back"
        case .scrollUp: "scroll-up"
        case .scrollDown: "scroll-down"
        case .toggleSwitch: "switch"
        case .openSettings: "open-settings"
        }
    }

    /// One line for people (`Elements()`).
    var summary: String {
        switch self {
        case .tab(.countries): "show the countries tab"
        case .tab(.settings): "show the settings tab"
        case .country(let capital): "select the country whose capital is \(capital) and show its capital"
        case .back: "go back to the countries table"
        case .scrollUp: "scroll the table up a screenful"
        case .scrollDown: "scroll the table down a screenful"
        case .toggleSwitch: "flip the amazing switch (kept in the app's defaults)"
        case .openSettings: "open Settings to change the location permission (the app goes to the background)"
        }
    }
}
