internal import RelaunchApp
internal import Logging
internal import RelaunchContract
internal import RestorationKit
internal import Systemd
internal import RelaunchBus

/// The launch: asks permissiond about the app's permissions and the last kill, gathers the saved
/// state, lets the engine restore (or not), carries out what it asks, and logs the contract's launch
/// events.
struct AppLauncher<App: HostableApp> {
    let configuration: HostConfiguration
    let savedState: SavedState
    /// nil when the system bus cannot be reached.
    let permissions: PermissionsClient?
    /// The app id permissiond knows this app by.
    let appID: String
    let logger: Logger

    /// Creates and launches the app; on return it is restored (or fresh) and every launch event is logged.
    func launch(
        makeApp: (_ buildNumber: String, _ permissions: [Permission: PermissionState]) -> App
    ) -> sending (app: App, permissions: [Permission: PermissionState], report: LaunchReport) {
        // Both questions to permissiond go out first; the local reads happen while they travel.
        let answers = self.permissions?.sendLaunchQueries(app: appID)
        let candidates = savedState.candidates()
        let data = readData()
        let previous = previousInvocations()
        let (listed, lastKilled) = answers?.wait() ?? (nil, nil)

        let permissions = readPermissions(listed)
        let app = makeApp(configuration.buildNumber, permissions)
        if let data { load(data, into: app) }
        let kill = lastKill(lastKilled)
        app.lastExit = lastExit(kill, previousInvocations: previous)
        forgiveMarkOfKilledRestore(kill)
        let report = app.launch(
            candidates: candidates,
            restoringMark: CrashingRestoringMark(
                directory: configuration.stateDirectory, invocationID: configuration.invocationID))

        for verdict in report.verdicts where verdict.error != nil {
            logger.notice("saved state from \(verdict.source) cannot be restored", metadata: [
                "ARCHIVE_SOURCE": "\(verdict.source)", "ARCHIVE_BYTES": "\(verdict.byteCount)",
                "ERROR": "\(verdict.error.map { "\($0)" } ?? "")",
            ])
        }
        for warning in report.warnings {
            logger.warning("\(warning)")
        }
        for action in report.actions {
            guard case .discardSavedState(let reason) = action else { continue }
            savedState.remove()
            logger.event(.savedStateDiscarded, "saved state discarded: \(reason)", ["REASON": reason.rawValue])
        }
        if report.outcome == .restored {
            for restored in report.restored {
                logger.event(.viewControllerRestored, "view controller restored: \(restored.path) via \(restored.via.rawValue)", [
                    "RESTORATION_PATH": restored.path, "RESTORED_VIA": restored.via.rawValue,
                ])
            }
            logger.event(.restorationFinished, "restoration finished: \(report.restoredCount) controllers from \(report.source ?? "?")", [
                "RESTORED_COUNT": "\(report.restoredCount)", "PRESENTED_PATH": report.presentedPath ?? "",
                "DURATION_USEC": "\(report.durationMicroseconds)", "ARCHIVE_SOURCE": report.source ?? "",
            ])
        }
        logSceneRestorations(report.scenes)
        logger.event(.appLaunched, "app launched: \(report.outcome.rawValue), build \(configuration.buildNumber)", [
            "LAUNCH_OUTCOME": report.outcome.rawValue, "BUILD_NUMBER": configuration.buildNumber,
            "DISCARD_REASON": report.discardReason?.rawValue ?? "", "ARCHIVE_SOURCE": report.source ?? "",
            "LAUNCH_NOTE": report.note ?? "",
        ])
        return (app, permissions, report)
    }

    /// One `scene session restored` entry per scene session of a scene-based app, in the order its
    /// windows were opened: which session, its activity, and whether it was restored, discarded (with
    /// its own REASON) or fresh. The activity's title stays out: it is what the user typed (a note's
    /// title), and the journal is read by more people than App1's `State`, which polkit guards.
    private func logSceneRestorations(_ scenes: [LaunchReport.SceneRestoration]) {
        for scene in scenes {
            var message = "scene session \(scene.session) \(scene.outcome.rawValue)"
            if let reason = scene.discardReason { message += " (\(reason.rawValue))" }
            if let type = scene.activityType { message += ": \(type)" }
            logger.event(.sceneSessionRestored, message, [
                "SCENE_SESSION": scene.session, "SCENE_ROLE": scene.role, "SCENE_OUTCOME": scene.outcome.rawValue,
                "ACTIVITY_TYPE": scene.activityType ?? "",
                "REASON": scene.discardReason?.rawValue ?? "", "DISCARD_DETAIL": scene.detail ?? "",
            ])
        }
    }

    /// The app's saved data model, if there is one it can be given.
    private func readData() -> [UInt8]? {
        do {
            return try AppData(directory: configuration.stateDirectory).read()
        } catch {
            logger.error("could not read the app's data; it starts with its defaults", metadata: ["ERROR": "\(error)"])
            return nil
        }
    }

    /// Hands the app its saved data model; bytes it cannot read are set aside, never deleted.
    private func load(_ bytes: [UInt8], into app: App) {
        let data = AppData(directory: configuration.stateDirectory)
        do {
            try app.loadData(bytes)
        } catch {
            logger.error("the app cannot read its saved data (\(bytes.count) bytes); kept aside as \(AppData.unreadableFileName), the app starts with its defaults", metadata: [
                "ERROR": "\(error)",
            ])
            do {
                try data.setAside(bytes)
            } catch {
                logger.error("could not set the unreadable data aside", metadata: ["ERROR": "\(error)"])
            }
        }
    }

    /// Records this instance's `$INVOCATION_ID` for the next launch's LastKill comparison (after READY=1:
    /// it is not needed to restore, and its fsync would only delay READY).
    func recordInvocation() {
        guard let current = configuration.invocationID else { return }
        do {
            try InvocationRecord(directory: configuration.stateDirectory).write(current)
        } catch {
            logger.warning("could not record this instance's invocation id", metadata: ["ERROR": "\(error)"])
        }
    }

    /// The app's permissions from permissiond's `List` answer (nil: the bus cannot be reached);
    /// not-determined when it could not be asked.
    private func readPermissions(_ answer: Result<[String: String], BusError>?) -> [Permission: PermissionState] {
        var states: [Permission: PermissionState] = [:]
        for permission in App.permissions { states[permission] = .notDetermined }
        guard let answer else { return states }
        do {
            let listed = try answer.get()
            for permission in App.permissions {
                states[permission] = listed[permission.rawValue].flatMap(PermissionState.init(rawValue:)) ?? .notDetermined
            }
        } catch {
            logger.warning("could not ask permissiond for the app's permissions; launching with not-determined", metadata: [
                "ERROR": "\(error)",
            ])
        }
        return states
    }

    /// permissiond's last kill of this app, from its `LastKill` answer (nil: the bus cannot be reached).
    func lastKill(_ answer: Result<LastKill?, BusError>?) -> LastKill? {
        guard let answer else { return nil }
        do {
            return try answer.get()
        } catch where error.name == BusError.unknownMethodName {
            logger.notice("permissiond has no LastKill; the last instance's end is not known", metadata: ["ERROR": "\(error)"])
        } catch {
            logger.warning("could not ask permissiond how the last instance ended", metadata: ["ERROR": "\(error)"])
        }
        return nil
    }

    /// The invocation ids of the previous instance: the one recorded after its READY=1, and the one in a
    /// restoring mark it left if it was killed before that.
    private func previousInvocations() -> Set<String> {
        var ids: Set<String> = []
        if let recorded = InvocationRecord(directory: configuration.stateDirectory).read() { ids.insert(recorded) }
        if let note = try? RestoringMarkFile(directory: configuration.stateDirectory).readNote() { ids.insert(note) }
        return ids
    }

    /// A mark left by a restore that permissiond killed (a permission changed while this app was
    /// launching) is no crash: clear it, so the saved state is restored rather than discarded.
    private func forgiveMarkOfKilledRestore(_ kill: LastKill?) {
        let mark = RestoringMarkFile(directory: configuration.stateDirectory)
        guard let kill, LaunchPolicy.forgivesRestoringMark(markInvocation: try? mark.readNote(), lastKill: kill) else { return }
        do {
            try mark.clear()
            logger.notice("the last restore was killed for a permission change, not crashed; restoring again", metadata: [
                "KILLED_INVOCATION_ID": "\(kill.invocationID)", "PERMISSION": "\(kill.permission)",
            ])
        } catch {
            logger.warning("could not clear the restoring mark of a killed restore", metadata: ["ERROR": "\(error)"])
        }
    }

    /// How the last instance ended, if permissiond killed it (its LastKill names that instance).
    private func lastExit(_ kill: LastKill?, previousInvocations: Set<String>) -> LastExit? {
        let exit: LastExit
        switch LaunchPolicy.lastExit(lastKill: kill, previousInvocations: previousInvocations) {
        case .notKilled:
            return nil
        case .unreadable:
            logger.warning("permissiond's LastKill names an unknown permission or state", metadata: [
                "PERMISSION": "\(kill?.permission ?? "")", "OLD_STATE": "\(kill?.old ?? "")", "NEW_STATE": "\(kill?.new ?? "")",
            ])
            return nil
        case .killed(let found):
            exit = found
        }
        let (permission, old, new) = (exit.permission, exit.old, exit.new)
        let kill = kill!
        logger.notice("the last instance was killed because \(permission) changed from \(old) to \(new)", metadata: [
            "EXIT_REASON": "permission-change", "PERMISSION": "\(permission)", "OLD_STATE": "\(old)",
            "NEW_STATE": "\(new)", "KILLED_INVOCATION_ID": "\(kill.invocationID)",
        ])
        return LastExit(permission: permission, old: old, new: new)
    }
}
