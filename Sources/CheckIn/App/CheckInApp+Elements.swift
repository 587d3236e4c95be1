internal import RestorationKit
package import RelaunchApp

extension CheckInApp {
    /// What the current screen accepts, so scripts and people can discover it: the taps on screen
    /// (none in the background), then the form's fields when the check-in modal shows it.
    package func elements() -> [ScreenElement] {
        guard lifecycle == .active else { return [] }
        var elements = onScreenElements().map { element in
            ScreenElement(name: element.name, isField: false, description: Self.describe(element))
        }
        if modal != nil {
            elements += [
                ScreenElement(name: "venue", isField: true, description: "the venue's name, at most \(CheckInForm.maximumVenueLength) characters"),
                ScreenElement(name: "party-size", isField: true, description: "how many people, \(CheckInForm.partySizes.lowerBound) to \(CheckInForm.partySizes.upperBound)"),
                ScreenElement(name: "note", isField: true, description: "a note for the venue, at most \(CheckInForm.maximumNoteLength) characters"),
            ]
        }
        return elements
    }

    private static func describe(_ element: Element) -> String {
        switch element {
        case .tab(.venues): "show the venues tab"
        case .tab(.checkIn): "show the check-in tab"
        case .checkIn: "open the check-in form for the selected venue"
        case .scan: "scan the venue's code with the camera"
        case .openSettings: "open Settings to change the camera permission (the app goes to the background)"
        case .done: "close the check-in form"
        case .venue(let id): "show venue \(id)"
        }
    }
}
