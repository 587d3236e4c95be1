package import RelaunchApp
package import RestorationKit

/// Launching from saved state, preserving it, and quitting.
extension CheckInApp {
    /// Launches: plans with the candidates, restores the newest readable one (restoring mark set before,
    /// cleared after; the app delegate may decline it) or launches fresh, and reports what happened.
    ///
    /// An archive that restores no controller into the window is reported as `fresh`, with a note why.
    ///
    /// - Parameters:
    ///   - candidates: Saved state found by the executable: the archive file and the fd store's copy.
    ///   - restoringMark: The restoring mark (a `RestoringMarkFile`; `MemoryRestoringMark` in tests).
    /// - Returns: The report; its `actions` hold what the caller must still do (delete discarded copies).
    @discardableResult
    package func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        let report = session.launch(candidates: candidates, restoringMark: restoringMark)
        modal?.form.resume(camera: camera)
        return report
    }

    /// The path of the presented controller on top, joined with `/`.
    var presentedPath: String? { session.presentedPath }
}
