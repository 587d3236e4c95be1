internal import RelaunchApp
internal import Logging
internal import RelaunchContract
internal import RestorationKit
internal import Synchronization
internal import Systemd
internal import RelaunchBus
internal import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The launched app behind one lock, and the I/O its effects ask for (preserve, discard, quit).
///
/// Bus handlers call in synchronously from the bus thread and the app service at shutdown, so the
/// app (not Sendable) lives in a `Mutex`; every effect is carried out while the lock is held, so input
/// and preservation never interleave.
final class AppHost<App: HostableApp>: Sendable {
    private struct Core: ~Copyable {
        var app: App
        /// The permissions as the app was last told them.
        var permissions: [Permission: PermissionState]
        /// A quit (force or not) asked the process to exit; nothing more is preserved.
        var terminating = false
    }

    private let core: Mutex<Core>
    /// The `linger-on-quit` test hook: the next quit exits ``lingerAfterQuit`` after answering.
    private let lingering = Mutex(false)
    static var lingerAfterQuit: Duration { .seconds(2) }
    let configuration: HostConfiguration
    private let savedState: SavedState
    private let data: AppData
    private let notifier: ServiceNotifier
    private let logger: Logger
    private let terminationContinuation: AsyncStream<Void>.Continuation
    /// Yields once when a quit asks the process to exit.
    let terminationRequests: AsyncStream<Void>
    /// Tells permissiond each lifecycle change (`background`, `active`), in order: the clock of
    /// one-time grants runs while the app is in the background.
    private let reportLifecycle: @Sendable (String) -> Void

    init(
        app: sending App, permissions: [Permission: PermissionState], configuration: HostConfiguration,
        savedState: SavedState, notifier: ServiceNotifier, logger: Logger,
        reportLifecycle: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.reportLifecycle = reportLifecycle
        core = Mutex(Core(app: app, permissions: permissions))
        self.configuration = configuration
        self.savedState = savedState
        data = AppData(directory: configuration.stateDirectory)
        self.notifier = notifier
        self.logger = logger
        (terminationRequests, terminationContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }


    /// Where the app is in its life (`active`, `background`, …).
    var lifecycle: String { core.withLock { $0.app.lifecycle.rawValue } }

    // MARK: Input

    /// Runs one input on the app and carries out its effects.
    ///
    /// An input that closed a scene session (a window) preserves at once, whether or not its effects
    /// ask: the closed session's saved state must leave the archive on disk now, or a kill before the
    /// next background would bring the window back.
    /// - Throws: The app's `InputError`.
    func input(_ body: (App) throws(App.InputError) -> [AppEffect]) throws(App.InputError) {
        try core.withLock { (core) throws(App.InputError) in
            let before = core.app.openSceneSessions
            let effects = try body(core.app)
            perform(preservingAfterClosing(before, effects, core.app), &core)
        }
    }

    /// `effects`, with a preservation first when the input closed scene sessions that were open
    /// `before` (logged with their ids).
    private func preservingAfterClosing(_ before: [String], _ effects: [AppEffect], _ app: App) -> [AppEffect] {
        let open = Set(app.openSceneSessions)
        let closed = before.filter { !open.contains($0) }
        guard !closed.isEmpty else { return effects }
        logger.notice("scene \(closed.count == 1 ? "session" : "sessions") closed: \(closed.joined(separator: ", ")); preserving so that \(closed.count == 1 ? "its" : "their") saved state goes", metadata: [
            "SCENE_SESSIONS_CLOSED": "\(closed.joined(separator: " "))",
        ])
        return effects.contains(.preserveState) ? effects : [.preserveState] + effects
    }

    /// Runs one scene input or query on the app, when it is scene-based, and carries out its effects.
    /// - Returns: What `body` returned, or nil when the app is not scene-based (`SceneHostableApp`).
    /// - Throws: The app's `SceneInputError` (an unknown session, refused input).
    func withScenes<Result: Sendable>(
        _ body: (any SceneHostableApp) throws(SceneInputError) -> (Result, [AppEffect])
    ) throws(SceneInputError) -> Result? {
        try core.withLock { (core) throws(SceneInputError) -> Result? in
            guard let app = core.app as? any SceneHostableApp else { return nil }
            let before = core.app.openSceneSessions
            let (result, effects) = try body(app)
            perform(preservingAfterClosing(before, effects, core.app), &core)
            return result
        }
    }

    /// Applies a permission as permissiond says it is now (a change that did not kill the app, or
    /// a value the launch could not read); logs only when it differs.
    func updatePermission(_ permission: Permission, to state: PermissionState, because reason: String) {
        core.withLock { core in
            let old = core.permissions[permission] ?? .notDetermined
            guard old != state else { return }
            core.permissions[permission] = state
            core.app.setPermission(permission, to: state)
            logger.notice("\(permission) permission is now \(state) (was \(old)): \(reason)", metadata: [
                "PERMISSION": "\(permission)", "OLD_STATE": "\(old)", "NEW_STATE": "\(state)",
            ])
            updateStatus(core.app.statusLine())
        }
    }

    /// What the current screen accepts (App1's `Elements()`).
    func elements() -> [AppElement] {
        core.withLock { core in
            core.app.elements().map { AppElement(name: $0.name, kind: $0.isField ? .type : .tap, description: $0.description) }
        }
    }

    /// The screen drawn as text.
    func screen() -> String { core.withLock { $0.app.screen() } }

    /// The state as JSON (CONTRACT.md's keys).
    func stateJSON() -> String { core.withLock { $0.app.stateJSON() } }

    /// The one-line `STATUS=` text for the app as it is now.
    func status(suffix: String? = nil) -> String {
        core.withLock { core in suffix.map { core.app.statusLine() + ", " + $0 } ?? core.app.statusLine() }
    }

    // MARK: Shutdown

    /// SIGTERM (systemctl stop): preserves when in the background (unless a quit already ran), then STOPPING=1.
    func shutDown(reason: String) {
        core.withLock { core in
            if !core.terminating && core.app.lifecycle == .background {
                preserve(core.app)
            }
        }
        logger.notice("stopping: \(reason)")
        do {
            try notifier.notify([.stopping, .status("Stopping: \(reason)")])
        } catch {
            logger.warning("could not tell systemd STOPPING=1", metadata: ["ERROR": "\(error)"])
        }
    }

    // MARK: Test hooks

    /// `TestHook hang`, a real deadlock: a thread of its own takes the app's lock and never lets go,
    /// then the calling thread (the bus loop, which pings the watchdog) waits for that lock. Nothing
    /// stops the pings but the stuck loop itself, so systemd's watchdog aborting the process proves
    /// that the watchdog watches the loop that serves.
    /// Arms the `linger-on-quit` test hook: the process that answers the next Quit stays for
    /// ``lingerAfterQuit`` before it exits, as a slow shutdown would (the race between a quit and
    /// a start that follows at once, made sure to happen).
    func lingerOnNextQuit() {
        lingering.withLock { $0 = true }
        logger.warning("test hook: the next quit exits \(Self.lingerAfterQuit) after it is answered")
    }

    /// Whether the next quit lingers (the hook is used up).
    func takeLingerOnQuit() -> Bool {
        lingering.withLock { armed in
            defer { armed = false }
            return armed
        }
    }

    func hang() {
        logger.warning("test hook: deadlocking the bus loop; the watchdog will abort this instance")
        let taken = DispatchSemaphore(value: 0)
        do {
            try spawnDetachedThread { [self] in
                core.withLock { _ in
                    taken.signal()
                    blockForever()
                }
            }
        } catch {
            logger.error("test hook hang: no thread to hang on", metadata: ["ERROR": "\(error)"])
            return
        }
        taken.wait()
        _ = screen()  // waits for the lock forever
    }

    // MARK: Effects

    /// Carries out `effects`, then sets STATUS to describe the screen (input changes it even without effects).
    private func perform(_ effects: [AppEffect], _ core: inout Core) {
        for effect in effects {
            switch effect {
            case .lifecycleChanged(let state):
                logger.event(.lifecycleChanged, "lifecycle changed: \(state.rawValue)", ["LIFECYCLE": state.rawValue])
                reportLifecycle(state.rawValue)
            case .preserveState:
                preserve(core.app)
            case .openSettings(let permission):
                logger.notice("opening Settings for the \(permission) permission", metadata: ["PERMISSION": "\(permission)"])
            case .saveData(let bytes):
                do {
                    try data.write(bytes)
                } catch {
                    logger.error("could not save the app's data; the last saved copy stays", metadata: ["ERROR": "\(error)"])
                }
            case .discardSavedState(let reason):
                savedState.remove()
                logger.event(.savedStateDiscarded, "saved state discarded: \(reason)", ["REASON": reason.rawValue])
            case .terminate:
                core.terminating = true
                terminationContinuation.yield()
            }
        }
        updateStatus(core.terminating ? core.app.statusLine() + ", quitting" : core.app.statusLine())
    }

    /// Preserves the app's state into both copies and logs `state preserved` with the copies made
    /// (ARCHIVE_COPIES); a copy that failed is logged apart, and only when neither was made is the
    /// preservation an error.
    private func preserve(_ app: App) {
        let clock = ContinuousClock()
        let start = clock.now
        let preservation: Preservation
        do {
            preservation = try app.preserve()
        } catch {
            logger.error("could not preserve the app's state; a relaunch will restore an older copy, if any, or start fresh", metadata: [
                "ERROR": "\(error)",
            ])
            return
        }
        if let warning = preservation.warning { logger.warning("\(warning)") }
        let copies = savedState.store(preservation.bytes)
        if let failure = copies.failure {
            logger.error("\(failure)", metadata: [
                "FILE_ERROR": "\(copies.failures[.file] ?? "")", "FDSTORE_ERROR": "\(copies.failures[.fdStore] ?? "")",
            ])
            return
        }
        for (copy, message) in copies.warnings {
            logger.warning("\(message)", metadata: ["ARCHIVE_COPY": "\(copy.rawValue)", "ERROR": "\(copies.failures[copy] ?? "")"])
        }
        let elapsed = clock.now - start
        logger.event(.statePreserved, "state preserved: \(preservation.bytes.count) bytes, generation \(preservation.generation), in \(copies.kept.map(\.place).joined(separator: " and "))", [
            "ARCHIVE_BYTES": "\(preservation.bytes.count)", "ARCHIVE_GENERATION": "\(preservation.generation)",
            "DURATION_USEC": "\(elapsed.microseconds)", "ENCODE_USEC": "\(preservation.durationMicroseconds)",
            "ARCHIVE_COPIES": copies.journalValue,
        ])
    }

    private func updateStatus(_ text: String) {
        do {
            try notifier.notify([.status(text)])
        } catch {
            logger.warning("could not update STATUS", metadata: ["ERROR": "\(error)"])
        }
    }
}
