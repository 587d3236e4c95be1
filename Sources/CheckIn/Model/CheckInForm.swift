public import RelaunchContract

/// What the check-in modal holds: the form the user types into and the step the camera decides.
public struct CheckInForm: Sendable, Equatable {
    /// Where the modal is.
    public enum Step: String, Sendable, CaseIterable {
        /// Filling in venue, party size and note.
        case details
        /// Scanning the venue's code with the camera.
        case scan
        /// The camera is denied; the user is offered Settings.
        case denied
    }

    /// The smallest and largest party size accepted.
    public static let partySizes = 1...20
    /// The longest venue name accepted.
    public static let maximumVenueLength = 80
    /// The longest note accepted.
    public static let maximumNoteLength = 280

    /// The venue typed or picked.
    public var venue = ""
    /// How many people check in.
    public var partySize = 2
    /// A free note.
    public var note = ""
    /// Where the modal is.
    public var step = Step.details

    /// An empty form at the details step.
    public init(venue: String = "", partySize: Int = 2, note: String = "", step: Step = .details) {
        self.venue = venue
        self.partySize = partySize
        self.note = note
        self.step = step
    }

    /// `scan` tapped: scanning needs the camera, else the user is told it is denied.
    public mutating func scan(camera: PermissionState) {
        step = camera == .allowed ? .scan : .denied
    }

    /// The app came back (or was restored) with `camera`: having allowed it in Settings resumes the scan.
    public mutating func resume(camera: PermissionState) {
        if step == .denied, camera == .allowed { step = .scan }
    }
}
