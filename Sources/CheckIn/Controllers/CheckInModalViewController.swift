internal import RestorationKit

/// The check-in modal: a form and a camera step, presented with a custom transition over a dimmed overlay.
final class CheckInModalViewController: ViewController, ViewControllerRestoration, ViewControllerTransitioningDelegate {
    private enum Key {
        static let venue = "venue"
        static let partySize = "partySize"
        static let step = "step"
    }

    /// The effect the overlay shows once the modal is on screen.
    static let backgroundVisualEffect = VisualEffect.dimmedBlur

    var form = CheckInForm()
    let overlay = OverlayView()
    /// The note's text view: it saves the note and the caret itself (the modal does not).
    let noteView = TextView()

    override init() {
        super.init()
        restorationIdentifier = RestorationID.modal
        restorationClass = CheckInModalViewController.self
        title = "Check In"
        noteView.restorationIdentifier = RestorationID.noteView
        view.addSubview(noteView)
    }

    /// Replaces the note, with the caret at its end.
    func setNote(_ text: String) {
        form.note = text
        noteView.text = text
        noteView.selectedRange = text.count..<text.count
    }

    /// The note comes back in the text view, which decodes after this controller: take it from there.
    override func applicationFinishedRestoringState() {
        super.applicationFinishedRestoringState()
        form.note = noteView.text
    }

    /// Moving into its navigation controller makes that one present with this modal's custom transition.
    override func willMove(toParent parent: ViewController?) {
        super.willMove(toParent: parent)
        if let navigation = parent as? NavigationController {
            navigation.transitioningDelegate = self
            navigation.modalPresentationStyle = .custom
        }
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(form.venue, forKey: Key.venue)
        coder.encode(form.partySize, forKey: Key.partySize)
        coder.encode(form.step.rawValue, forKey: Key.step)
    }

    override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        form.venue = coder.decodeString(forKey: Key.venue) ?? ""
        if let size = coder.decodeInt(forKey: Key.partySize), CheckInForm.partySizes.contains(size) { form.partySize = size }
        form.step = coder.decodeString(forKey: Key.step).flatMap(CheckInForm.Step.init(rawValue:)) ?? .details
    }

    // MARK: ViewControllerTransitioningDelegate

    var transitionName: String { "CheckInModalTransition" }

    /// The presentation animation fades the overlay in; a restored presentation is not animated.
    func animatePresentation(of presented: ViewController, over presenting: ViewController) {
        overlay.effect = Self.backgroundVisualEffect
    }

    // MARK: ViewControllerRestoration

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        let modal = CheckInModalViewController()
        // This isn't restored automatically: the presentation that sets it is not replayed.
        modal.overlay.effect = backgroundVisualEffect
        return modal
    }
}

/// The dimming behind the check-in modal (the seed's `UIVisualEffectView`).
package enum VisualEffect: String, Sendable {
    /// A dark blur over the presenter.
    case dimmedBlur
}

/// A view holding a visual effect, nil until someone sets it.
final class OverlayView {
    var effect: VisualEffect?
}
