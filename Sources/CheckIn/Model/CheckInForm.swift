package import RelaunchContract

/// What the check-in modal holds: the form the user types into and the step the camera decides.
package struct CheckInForm: Sendable, Equatable {
    /// Where the modal is.
    package enum Step: String, Sendable, CaseIterable {
        /// Filling in venue, party size and note.
        case details
        /// Scanning the venue's code with the camera.
        case scan
        /// The camera is denied; the user is offered Settings.
        case denied
    }

    /// The smallest and largest party size accepted.
    package static let partySizes = 1...20
    /// The longest venue name accepted.
    package static let maximumVenueLength = 80
    /// The longest note accepted.
    package static let maximumNoteLength = 280

    /// The venue typed or picked.
    package var venue = ""
    /// How many people check in.
    package var partySize = 2
    /// A free note.
    package var note = ""
    /// Where the modal is.
    package var step = Step.details

    /// An empty form at the details step.
    package init(venue: String = "", partySize: Int = 2, note: String = "", step: Step = .details) {
        self.venue = venue
        self.partySize = partySize
        self.note = note
        self.step = step
    }

    /// `scan` tapped: scanning needs the camera, else the user is told it is denied.
    package mutating func scan(camera: PermissionState) {
        step = camera == .allowed ? .scan : .denied
    }

    /// The app came back (or was restored) with `camera`: having allowed it in Settings resumes the scan.
    package mutating func resume(camera: PermissionState) {
        if step == .denied, camera == .allowed { step = .scan }
    }
}
