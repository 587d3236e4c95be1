internal import RelaunchContract

/// Input Colorboard cannot take; every message says what is accepted.
package enum ColorboardInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The element is not one the app has.
    case unknownElement(String)
    /// `color:ID` names no color of the list.
    case unknownColor(String, accepted: [String])
    /// The field is not one the editor has.
    case unknownField(String)
    /// A slider takes a number from 0 to 1.
    case invalidComponent(field: String, text: String)
    /// The name is longer than the field takes.
    case nameTooLong(maximum: Int)
    /// The element exists but is not on screen now.
    case notOnScreen(String, onScreen: [String])
    /// No editor is on screen, so nothing can be typed.
    case editorNotOnScreen
    /// The list already holds the most colors it takes.
    case listFull(maximum: Int)
    /// The app is in the background and takes no input.
    case inBackground

    /// Every element name, for messages.
    package static let acceptedElements = "add, color:ID, back, done, cancel, save-swatch, open-settings"
    /// Every field name, for messages.
    package static let acceptedFields = "name, red, green, blue"

    /// What went wrong and what to do, in one line.
    package var description: String {
        switch self {
        case .unknownElement(let element):
            "unknown element \(Echo.quoted(element)); accepted: \(Self.acceptedElements)"
        case .unknownColor(let id, let accepted):
            "unknown color \(Echo.quoted(id)); accepted: \(accepted.prefix(8).map { "color:\($0)" }.joined(separator: ", "))"
                + (accepted.count > 8 ? " and \(accepted.count - 8) more" : "")
        case .unknownField(let field):
            "unknown field \(Echo.quoted(field)); accepted: \(Self.acceptedFields)"
        case .invalidComponent(let field, let text):
            "\(field) \(Echo.quoted(text)) is not accepted; give a number from 0 to 1, such as 0.5"
        case .nameTooLong(let maximum):
            "name is too long; at most \(maximum) characters are accepted"
        case .notOnScreen(let element, let onScreen):
            "\(Echo.quoted(element)) is not on screen now; on screen: \(onScreen.prefix(8).joined(separator: ", "))"
                + (onScreen.count > 8 ? " and \(onScreen.count - 8) more" : "")
        case .editorNotOnScreen:
            "no color editor is on screen; tap add or color:ID before typing \(Self.acceptedFields)"
        case .listFull(let maximum):
            "the list holds \(maximum) colors, the most it takes; edit one instead"
        case .inBackground:
            "the app is in the background and takes no input; send foreground first"
        }
    }
}

/// Something the user can tap.
enum ColorboardElement: Equatable {
    case add
    case color(String)
    case back
    case done
    case cancel
    case saveSwatch
    case openSettings

    init(parsing text: String) throws(ColorboardInputError) {
        switch text {
        case "add": self = .add
        case "back": self = .back
        case "done": self = .done
        case "cancel": self = .cancel
        case "save-swatch": self = .saveSwatch
        case "open-settings": self = .openSettings
        default:
            guard text.hasPrefix("color:"), text.count > 6 else { throw .unknownElement(text) }
            self = .color(String(text.dropFirst(6)))
        }
    }

    /// Its name in `tap ELEMENT`.
    var name: String {
        switch self {
        case .add: "add"
        case .color(let id): "color:\(id)"
        case .back: "back"
        case .done: "done"
        case .cancel: "cancel"
        case .saveSwatch: "save-swatch"
        case .openSettings: "open-settings"
        }
    }
}

/// A field of the color editor.
enum ColorboardField: String, CaseIterable {
    case name
    case red
    case green
    case blue
}
