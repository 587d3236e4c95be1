package import RelaunchApp
package import RelaunchContract
package import RestorationKit

/// Colorboard under the Relaunch host library: it needs the photo library to save a swatch.
extension ColorboardApp: SessionHostedApp {
    /// Photos: `save-swatch` needs it.
    package static var permissions: [Permission] { [.photos] }

    /// Takes the photos permission (the only one the app reads).
    package func setPermission(_ permission: Permission, to state: PermissionState) {
        if permission == .photos { setPhotos(state) }
    }

    /// Takes the saved color list.
    /// - Throws: `ColorDataError` when the bytes are not a color list this build reads; the app keeps its defaults.
    package func loadData(_ bytes: [UInt8]) throws {
        try store.load(bytes)
    }

    /// Launches: restores from the newest valid candidate, or not, as the engine decides; an editor
    /// whose swatch was denied may try again if photos is now allowed.
    @discardableResult
    package func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        let report = session.launch(candidates: candidates, restoringMark: restoringMark)
        resumeSwatch()
        return report
    }

    /// A one-line description of the screen, e.g. `Editing color Teal`.
    package func statusLine() -> String {
        if lifecycle == .background { return "In the background, state preserved" }
        if let editor = presentedEditor { return "Adding a color (\(editor.name))" }
        if let editor = pushedEditor { return "Editing color \(editor.colorDescription?.name ?? editor.name)" }
        return "Showing \(store.colors.count) colors"
    }
}
