internal import RelaunchContract

/// Input the app cannot take; every message says what is accepted.
package enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The element is not one the app has.
    case unknownElement(String)
    /// The element exists but is not on screen now.
    case notOnScreen(String, onScreen: [String])
    /// The field is not one the window shows now.
    case unknownField(String, fields: [String])
    /// The app is in the background and takes no input.
    case inBackground

    /// Every element name, for messages.
    package static let acceptedElements = "cursor-start, cursor-end, cursor-left, cursor-right, select-left, select-all, "
        + "attach, photo:NAME, cancel, open-settings, new-window, close-window, window:N"

    /// What went wrong and what to do, in one line.
    package var description: String {
        switch self {
        case .unknownElement(let element):
            "unknown element \(Echo.quoted(element)); accepted: \(Self.acceptedElements)"
        case .notOnScreen(let element, let onScreen):
            "\(Echo.quoted(element)) is not on screen now; on screen: \(onScreen.joined(separator: ", "))"
        case .unknownField(let field, let fields):
            "unknown field \(Echo.quoted(field)); "
                + (fields.isEmpty ? "this window has no field to type into now (close the picker first)" : "fields now: \(fields.joined(separator: ", "))")
        case .inBackground:
            "the app is in the background and takes no input; send foreground first"
        }
    }
}

/// Something the user can tap in a note window.
enum Element: Equatable {
    case cursorStart, cursorEnd, cursorLeft, cursorRight, selectLeft, selectAll
    case attach
    case photo(String)
    case cancel
    case openSettings
    case newWindow
    case closeWindow
    /// Makes the Nth open window (from 1) the key window.
    case window(Int)

    private static let plain: [String: Element] = [
        "cursor-start": .cursorStart, "cursor-end": .cursorEnd, "cursor-left": .cursorLeft,
        "cursor-right": .cursorRight, "select-left": .selectLeft, "select-all": .selectAll, "attach": .attach,
        "cancel": .cancel, "open-settings": .openSettings, "new-window": .newWindow, "close-window": .closeWindow,
    ]

    init(parsing text: String) throws(InputError) {
        if let element = Self.plain[text] {
            self = element
        } else if text.hasPrefix("photo:"), text.count > 6 {
            self = .photo(String(text.dropFirst(6)))
        } else if text.hasPrefix("window:"), let number = Int(text.dropFirst(7)), number > 0 {
            self = .window(number)
        } else {
            throw .unknownElement(text)
        }
    }

    /// Its name in `tap ELEMENT`.
    var name: String {
        switch self {
        case .photo(let name): "photo:\(name)"
        case .window(let number): "window:\(number)"
        default: Self.plain.first { $0.value == self }?.key ?? ""
        }
    }

    /// One line for people (`Elements()`).
    var summary: String {
        switch self {
        case .cursorStart: "move the caret to the start of the note"
        case .cursorEnd: "move the caret to the end of the note"
        case .cursorLeft: "move the caret one character left"
        case .cursorRight: "move the caret one character right"
        case .selectLeft: "extend the selection one character left"
        case .selectAll: "select the whole note"
        case .attach: "attach a photo: presents the attachment picker (it needs photos)"
        case .photo(let name): "attach \(name) at the caret and close the picker"
        case .cancel: "close the attachment picker"
        case .openSettings: "open Settings to allow photos (the app goes to the background)"
        case .newWindow: "open a new window with a new note"
        case .closeWindow: "close this window (its saved state goes; the last window stays open)"
        case .window(let number): "bring window \(number) to the front (input goes to it)"
        }
    }
}

/// The fields of a note window.
enum Field: String, CaseIterable {
    /// The note's title (typing replaces it).
    case title
    /// The note's body (typing replaces the selection, or inserts at the caret).
    case body
}
