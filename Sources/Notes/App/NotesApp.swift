package import RelaunchApp
package import RelaunchContract
package import RestorationKit

/// notes-demo's app as a library: notes in several windows, each window a scene that shows one
/// note being edited (title, body, caret or selection) and may present an attachment picker that
/// needs the photos permission. The executable feeds it input, saved state and its notes, and does
/// the I/O its effects ask for.
///
/// Restored per window from the activity its scene saved (UIKit's scene-based restoration): the
/// note it shows, the selection and the picker; which window was in front comes back through the
/// app-level coder. The notes themselves are the app's data (`NoteStore`), saved at every edit.
/// Not thread-safe: use it from one task or actor.
package final class NotesApp: SessionHostedApp {
    /// The running build; archives from another build are discarded.
    package let buildNumber: String
    /// The photos permission as the permission daemon last said.
    package private(set) var photos: PermissionState
    /// How the last instance ended, when it was killed for a permission change.
    package var lastExit: LastExit?
    /// The session that launches, restores and preserves the app.
    package let session: RestorationSession
    /// The notes.
    package let store = NoteStore()
    let delegate: NotesAppDelegate
    /// The window input goes to when no scene is named (the last one opened or switched to).
    var keySession: String?

    /// An app for `buildNumber`, not launched yet.
    ///
    /// - Parameters:
    ///   - buildNumber: The running build (saved in every archive, compared at launch).
    ///   - photos: The photos permission at launch, from the permission daemon.
    ///   - limits: Archive size limits.
    ///   - wallClock: The time in microseconds since the Unix epoch, for archive headers.
    ///   - uptime: A monotonic time since any fixed origin, to time launches and preservations.
    package init(
        buildNumber: String, photos: PermissionState, limits: ArchiveLimits = .default,
        wallClock: @escaping @Sendable () -> UInt64 = WallClock.microseconds,
        uptime: @escaping @Sendable () -> Duration = WallClock.uptime
    ) {
        self.buildNumber = buildNumber
        self.photos = photos
        delegate = NotesAppDelegate(buildNumber: buildNumber, store: store)
        let application = Application(buildVersion: buildNumber, delegate: delegate, registry: RestorationRegistry())
        application.supportsScenes = true
        session = RestorationSession(application: application, limits: limits, wallClock: wallClock, uptime: uptime)
        delegate.keySceneToSave = { [unowned self] in keySession }
    }

    /// The photos permission: the picker shows photos only while it is allowed.
    package static var permissions: [Permission] { [.photos] }

    /// Takes the photos permission (a change that did not kill the app, or the value at launch).
    package func setPermission(_ permission: Permission, to state: PermissionState) {
        if permission == .photos { photos = state }
    }

    /// Takes the saved notes (before `launch`, so that restored windows find their notes).
    /// - Throws: `NoteStoreError` when they cannot be read; the host keeps them aside.
    package func loadData(_ bytes: [UInt8]) throws {
        try store.load(bytes)
    }

    /// Launches through the session, then makes the window the archive named the key window again
    /// (else the last one).
    @discardableResult
    package func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        let report = session.launch(candidates: candidates, restoringMark: restoringMark)
        let open = application.openSessions.map(\.persistentIdentifier)
        keySession = delegate.restoredKeyScene.flatMap { open.contains($0) ? $0 : nil } ?? open.last
        return report
    }

    /// The last launch's report, nil before `launch`.
    package var launchReport: LaunchReport? { session.launchReport }

    // MARK: Windows, as the app knows them

    var application: Application { session.application }

    /// The open windows (connected scenes), in the order they were opened.
    var windows: [Scene] {
        application.openSessions.compactMap(\.scene)
    }

    /// The key window's scene, if any window is open.
    var keyScene: Scene? {
        windows.first { $0.session.persistentIdentifier == keySession } ?? windows.last
    }

    /// The editor of `scene`'s window.
    func editor(of scene: Scene) -> NoteViewController? {
        scene.window.rootViewController as? NoteViewController
    }

    /// The note `scene`'s window shows.
    func note(of scene: Scene) -> Note? {
        editor(of: scene).flatMap { store.note($0.noteID) }
    }

    /// One line for systemd's STATUS=.
    package func statusLine() -> String {
        if lifecycle == .background { return "In the background, state preserved" }
        let count = windows.count
        let key = keyScene.flatMap(note(of:)).map { ", editing \($0.displayTitle)" } ?? ""
        return "\(count) window\(count == 1 ? "" : "s") open\(key)"
    }
}
