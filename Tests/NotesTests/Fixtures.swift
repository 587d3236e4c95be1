@testable import Notes
import RelaunchApp
import RelaunchContract
import RestorationKit

/// What the host keeps for the app between two launches (the saved archive and the saved notes),
/// and what it does with the effects of input, as RelaunchHost does.
final class FakeHost {
    var archive: [UInt8]?
    var data: [UInt8]?
    var settingsOpened: [Permission] = []

    func perform(_ effects: [AppEffect], of app: NotesApp) throws {
        for effect in effects {
            switch effect {
            case .preserveState: archive = try app.preserve().bytes
            case .saveData(let bytes): data = bytes
            case .discardSavedState: archive = nil
            case .openSettings(let permission): settingsOpened.append(permission)
            case .lifecycleChanged, .terminate: break
            }
        }
    }

    /// A new instance, as systemd's relaunch makes it: notes loaded, then launched from the archive.
    func relaunch(build: String = "1", photos: PermissionState = .denied) throws -> NotesApp {
        let app = NotesApp(buildNumber: build, photos: photos, wallClock: { 1_000 })
        if let data { try app.loadData(data) }
        app.launch(
            candidates: archive.map { [ArchiveCandidate(source: "file", bytes: $0)] } ?? [],
            restoringMark: MemoryRestoringMark())
        return app
    }

    func tap(_ app: NotesApp, _ element: String, scene: String? = nil) throws {
        if let scene {
            try perform(try app.tap(element, inScene: scene), of: app)
        } else {
            try perform(try app.tap(element), of: app)
        }
    }

    func type(_ app: NotesApp, _ field: String, _ text: String, scene: String) throws {
        try perform(try app.type(field, text, inScene: scene), of: app)
    }

    func openScene(_ app: NotesApp) throws -> String {
        let (session, effects) = try app.openScene()
        try perform(effects, of: app)
        return session
    }

    func background(_ app: NotesApp) throws {
        try perform(app.background(), of: app)
    }
}
