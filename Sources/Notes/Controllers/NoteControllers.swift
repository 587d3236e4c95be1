internal import RelaunchContract
internal import RestorationKit

/// The restoration identifiers of a note window's controllers (its paths in the state JSON).
package enum NotesRestorationID {
    /// The note editor at the root of a window.
    package static let editor = "NoteViewController"
    /// The navigation controller the attachment picker is presented in.
    package static let pickerNavigation = "AttachmentPickerNavigationController"
    /// The attachment picker.
    package static let picker = "AttachmentPickerViewController"
}

/// A window's root: one note being edited. Its body is a text view whose selection (or caret) is
/// what the user left; the note's text itself lives in the `NoteStore`.
final class NoteViewController: ViewController {
    /// The note it edits.
    let noteID: String
    /// The body being edited, with its selection.
    let textView = TextView()

    init(noteID: String, body: String) {
        self.noteID = noteID
        super.init()
        restorationIdentifier = NotesRestorationID.editor
        textView.text = body
        textView.selectedRange = body.count..<body.count
        view.addSubview(textView)
    }

    /// The attachment picker it presents, if any.
    var picker: AttachmentPickerViewController? {
        (presentedViewController as? NavigationController)?.viewControllers.first as? AttachmentPickerViewController
    }

    /// Presents the attachment picker in a navigation controller, as a notes app does.
    @discardableResult
    func presentPicker() -> AttachmentPickerViewController {
        if let picker { return picker }
        let picker = AttachmentPickerViewController()
        let navigation = NavigationController(rootViewController: picker)
        navigation.restorationIdentifier = NotesRestorationID.pickerNavigation
        navigation.modalPresentationStyle = .formSheet
        present(navigation, animated: true)
        return picker
    }

    /// Replaces the selection with `text` and leaves the caret after it.
    func insert(_ text: String) {
        let body = Array(textView.text)
        let range = textView.selectedRange.clamped(to: 0..<body.count)
        textView.text = String(body[..<range.lowerBound]) + text + String(body[range.upperBound...])
        let caret = range.lowerBound + text.count
        textView.selectedRange = caret..<caret
    }
}

/// Picks a photo to attach to the note; it needs the photos permission to show any.
final class AttachmentPickerViewController: ViewController {
    /// The photos the picker offers once photos are allowed.
    static let photos = ["harbour.jpg", "receipt.png", "whiteboard.jpg"]
    /// The photos the user selected for the app: all it sees under limited access.
    static let selectedPhotos = ["receipt.png"]

    /// The photos the picker shows under `access`: all of them with full access, the selected ones
    /// under limited access, none otherwise (add-only access cannot read the library).
    static func photos(under access: PermissionState) -> [String] {
        switch access {
        case .allowed: photos
        case .limited: selectedPhotos
        default: []
        }
    }

    override init() {
        super.init()
        restorationIdentifier = NotesRestorationID.picker
    }
}
