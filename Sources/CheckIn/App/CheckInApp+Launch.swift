public import RelaunchApp
public import RestorationKit

/// Launching from saved state, preserving it, and quitting: the session does it; the check-in
/// modal moves on from `denied` once the camera is allowed.
extension CheckInApp {
    /// Launches through the session (see `AppSession.launch`), then lets a restored modal at `denied`
    /// move on to `scan` if the camera is now allowed.
    @discardableResult
    public func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        let report = session.launch(candidates: candidates, restoringMark: restoringMark)
        modal?.form.resume(camera: camera)
        return report
    }

    /// Preserves the current state as archive bytes (see `AppSession.preserve`).
    public func preserve() throws(PreservationError) -> Preservation { try session.preserve() }

    /// The user's force quit: saved state is discarded (`force-quit`) and the process exits.
    public func forceQuit() -> [AppEffect] { session.forceQuit() }

    /// A normal quit: the app goes to the background (preserving its state) and the process exits.
    public func quit() -> [AppEffect] { session.quit() }

    /// The path of the presented controller on top, joined with `/`.
    var presentedPath: String? { session.presentedPath }
}
