public import RelaunchApp
public import RelaunchContract
import RestorationKit

/// What the host keeps for an app between two launches (the saved archive and the saved data), and
/// what it does with the effects of input, as RelaunchHost does: the one fake host of the apps' tests.
///
/// A test target adds the app's own `relaunch(build:…)` in an extension that makes the new instance and
/// hands it to ``relaunch(_:)``.
public final class FakeHost<App: HostableApp> {
    /// The archive the last preservation stored; nil once discarded.
    public var archive: [UInt8]?
    /// The app's data model as the last `saveData` effect left it.
    public var data: [UInt8]?
    /// Whether the app asked to terminate since its launch.
    public var terminated = false
    /// The permissions whose page in Settings the app asked for, in order.
    public var settingsOpened: [Permission] = []

    /// A host with nothing saved.
    public init() {}

    /// Carries out `effects` as RelaunchHost does (preserve, save data, discard, terminate, open Settings).
    /// - Throws: the app's `PreservationError` when a preservation fails.
    public func perform(_ effects: [AppEffect], of app: App) throws {
        for effect in effects {
            switch effect {
            case .preserveState: archive = try app.preserve().bytes
            case .saveData(let bytes): data = bytes
            case .discardSavedState: archive = nil
            case .terminate: terminated = true
            case .openSettings(let permission): settingsOpened.append(permission)
            case .lifecycleChanged: break
            }
        }
    }

    /// `app`, a new instance, launched as systemd's relaunch does it: the saved data loaded, then
    /// launched from the saved archive.
    /// - Throws: what the app's `loadData(_:)` throws.
    public func relaunch(_ app: App) throws -> App {
        if let data { try app.loadData(data) }
        _ = app.launch(
            candidates: archive.map { [ArchiveCandidate(source: "file", bytes: $0)] } ?? [],
            restoringMark: MemoryRestoringMark())
        terminated = false
        return app
    }

    /// Taps `element` on `app` and carries out the effects.
    /// - Throws: the app's `InputError`, or what ``perform(_:of:)`` throws.
    public func tap(_ app: App, _ element: String) throws {
        try perform(try app.tap(element), of: app)
    }

    /// Types `text` into `field` on `app` and carries out the effects.
    /// - Throws: the app's `InputError`, or what ``perform(_:of:)`` throws.
    public func type(_ app: App, _ field: String, _ text: String) throws {
        try perform(try app.type(field, text), of: app)
    }

    /// Sends `app` to the background (it preserves) and carries out the effects.
    /// - Throws: what ``perform(_:of:)`` throws.
    public func background(_ app: App) throws {
        try perform(app.background(), of: app)
    }
}

extension FakeHost where App: SceneHostableApp {
    /// Taps `element` in the window `scene` of `app` (or on the app, with no scene) and carries out
    /// the effects.
    /// - Throws: the app's input error, or what ``perform(_:of:)`` throws.
    public func tap(_ app: App, _ element: String, scene: String?) throws {
        if let scene {
            try perform(try app.tap(element, inScene: scene), of: app)
        } else {
            try perform(try app.tap(element), of: app)
        }
    }

    /// Types `text` into `field` in the window `scene` of `app` and carries out the effects.
    /// - Throws: the app's input error, or what ``perform(_:of:)`` throws.
    public func type(_ app: App, _ field: String, _ text: String, scene: String) throws {
        try perform(try app.type(field, text, inScene: scene), of: app)
    }

    /// Opens a new window of `app`, carries out the effects and returns its session.
    /// - Throws: the app's `SceneInputError`, or what ``perform(_:of:)`` throws.
    public func openScene(_ app: App) throws -> String {
        let (session, effects) = try app.openScene()
        try perform(effects, of: app)
        return session
    }
}
