internal import RelaunchContract
/// Input the app cannot take; every message says what is accepted.
package enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The element is not one the app has.
    case unknownElement(String)
    /// `venue:ID` names no venue.
    case unknownVenue(String, accepted: [String])
    /// The field is not one the check-in form has.
    case unknownField(String)
    /// The party size is not a whole number in range.
    case invalidPartySize(String)
    /// The text is longer than the field takes.
    case tooLong(field: String, maximum: Int)
    /// The element exists but is not on screen now.
    case notOnScreen(String, onScreen: [String])
    /// The check-in form is not on screen, so nothing can be typed.
    case formNotOnScreen
    /// The app is in the background and takes no input.
    case inBackground

    /// Every element name, for messages.
    package static let acceptedElements = "tab:venues, tab:check-in, check-in, scan, open-settings, done, venue:ID"
    /// Every field name, for messages.
    package static let acceptedFields = "venue, party-size, note"

    /// What went wrong and what to do, in one line.
    package var description: String {
        switch self {
        case .unknownElement(let element):
            "unknown element \(Echo.quoted(element)); accepted: \(Self.acceptedElements)"
        case .unknownVenue(let id, let accepted):
            "unknown venue \(Echo.quoted(id)); accepted: \(accepted.map { "venue:\($0)" }.joined(separator: ", "))"
        case .unknownField(let field):
            "unknown field \(Echo.quoted(field)); accepted: \(Self.acceptedFields)"
        case .invalidPartySize(let text):
            "party size \(Echo.quoted(text)) is not accepted; give a whole number from "
                + "\(CheckInForm.partySizes.lowerBound) to \(CheckInForm.partySizes.upperBound)"
        case .tooLong(let field, let maximum):
            "\(field) is too long; at most \(maximum) characters are accepted"
        case .notOnScreen(let element, let onScreen):
            "\(Echo.quoted(element)) is not on screen now; on screen: \(onScreen.joined(separator: ", "))"
        case .formNotOnScreen:
            "the check-in form is not on screen; tap tab:check-in, then check-in, before typing \(Self.acceptedFields)"
        case .inBackground:
            "the app is in the background and takes no input; send foreground first"
        }
    }
}

/// A tab of the root tab bar, by its name in `tap tab:NAME` and the state JSON.
package enum Tab: String, Sendable, CaseIterable {
    /// The venue list and its pushed details.
    case venues
    /// The check-in button.
    case checkIn = "check-in"
}

/// Something the user can tap.
enum Element: Equatable {
    case tab(Tab)
    case checkIn
    case scan
    case openSettings
    case done
    case venue(String)

    init(parsing text: String) throws(InputError) {
        switch text {
        case "check-in": self = .checkIn
        case "scan": self = .scan
        case "open-settings": self = .openSettings
        case "done": self = .done
        default:
            if text.hasPrefix("tab:"), let tab = Tab(rawValue: String(text.dropFirst(4))) {
                self = .tab(tab)
            } else if text.hasPrefix("venue:"), text.count > 6 {
                self = .venue(String(text.dropFirst(6)))
            } else {
                throw .unknownElement(text)
            }
        }
    }

    /// Its name in `tap ELEMENT`.
    var name: String {
        switch self {
        case .tab(let tab): "tab:\(tab.rawValue)"
        case .checkIn: "check-in"
        case .scan: "scan"
        case .openSettings: "open-settings"
        case .done: "done"
        case .venue(let id): "venue:\(id)"
        }
    }
}

/// A field of the check-in form.
enum Field: String, CaseIterable {
    case venue
    case partySize = "party-size"
    case note
}
