public import RestorationKit

/// What every hosted app does alike around its `Application`: the launch (plan, restoring mark,
/// restore or not, the report), preservation into archive bytes with growing generations, and the
/// effects of a quit. An app keeps one and answers `HostableApp`'s launch members from it.
///
/// Not thread-safe, like the application it drives: use it from one task or actor.
public final class RestorationSession {
    /// The application it launches and preserves.
    public let application: Application
    /// Archive size limits.
    public let limits: ArchiveLimits
    /// The last launch's report, nil before `launch`.
    public private(set) var launchReport: LaunchReport?

    private let uptime: @Sendable () -> Duration
    private let wallClock: @Sendable () -> UInt64
    private var planner: LaunchPlanner
    private var nextGeneration: UInt64 = 1

    /// A session for `application`, not launched yet.
    ///
    /// - Parameters:
    ///   - application: The app's application (its delegate and registry set).
    ///   - limits: Archive size limits.
    ///   - wallClock: The time in microseconds since the Unix epoch, for archive headers.
    ///   - uptime: A monotonic time since any fixed origin, to time launches and preservations.
    public init(
        application: Application, limits: ArchiveLimits = .default,
        wallClock: @escaping @Sendable () -> UInt64 = WallClock.microseconds,
        uptime: @escaping @Sendable () -> Duration = WallClock.uptime
    ) {
        self.application = application
        self.limits = limits
        self.wallClock = wallClock
        self.uptime = uptime
        planner = LaunchPlanner(limits: limits)
    }

    /// Launches: plans with the candidates, restores the newest readable one (restoring mark set before
    /// anything is decoded, cleared after restoring; the app delegate may decline it) or launches
    /// fresh, and reports what happened.
    ///
    /// An archive that restores no controller into the window and no scene's activity is reported as
    /// `fresh`, with a note why; a scene-based app's archive is `restored` when one scene's activity was.
    /// The report says how each scene session came back (`LaunchReport.scenes`).
    ///
    /// - Parameters:
    ///   - candidates: Saved state found by the executable: the archive file and the fd store's copy.
    ///   - restoringMark: The restoring mark (a `RestoringMarkFile`; `MemoryRestoringMark` in tests).
    /// - Returns: The report; its `actions` hold what the caller must still do (delete discarded copies).
    @discardableResult
    public func launch(candidates: [ArchiveCandidate], restoringMark: any RestoringMarkStore) -> LaunchReport {
        let start = uptime()
        var warnings: [String] = []
        var pending: [LaunchAction] = []
        let markFound: Bool
        do {
            markFound = try restoringMark.isSet()
        } catch {
            markFound = false
            warnings.append("could not check the restoring mark: \(error)")
        }
        // The mark is set (durably) before any candidate is decoded: if decoding crashes, the next
        // launch finds it and discards the saved state unread instead of crashing again.
        perform(planner.prepare(candidates: candidates, restoringMarkFound: markFound), restoringMark, &pending, &warnings)
        let plan = planner.plan()
        nextGeneration = plan.nextGeneration
        warnings += plan.warnings
        perform(plan.actions, restoringMark, &pending, &warnings)

        var outcome = LaunchReport.Outcome.fresh
        var reason = plan.discardReason
        var restored: [LaunchReport.RestoredPath] = []
        var source: String?
        var note: String?
        var scenes: [LaunchReport.SceneRestoration] = []
        switch plan.decision {
        case .fresh, .discard:
            application.launch(restoringFrom: nil)
            outcome = reason == nil ? .fresh : .discarded
            scenes = Self.sceneRestorations(of: application, archive: nil, declined: nil)
        case .restore(let archive, let from):
            let launched = application.launch(restoringFrom: archive)
            var declinedReason: DiscardReason?
            if case .declined(let declined) = launched { declinedReason = declined }
            scenes = Self.sceneRestorations(of: application, archive: archive, declined: declinedReason)
            switch launched {
            case .restored(let report):
                if application.isRestoringState {
                    // Restoration was extended: the mark stays until the last completeStateRestoration().
                    application.whenStateRestorationCompletes { [self] in
                        var late: [LaunchAction] = []
                        var lateWarnings: [String] = []
                        perform(planner.restorationFinished(), restoringMark, &late, &lateWarnings)
                        launchReport?.warnings += lateWarnings
                    }
                } else {
                    perform(planner.restorationFinished(), restoringMark, &pending, &warnings)
                }
                source = from
                restored = report.restored.map { .init(path: $0.path.joined(separator: "/"), via: $0.via) }
                warnings += report.notes
                warnings += report.skipped.map { "\($0.path.joined(separator: "/")) was not restored: \($0.reason)" }
                if restored.isEmpty, !scenes.contains(where: { $0.outcome == .restored }) {
                    outcome = .fresh
                    let why = report.skipped.first.map { "\($0.path.joined(separator: "/")) was not restored: \($0.reason)" }
                    note = "the saved state from \(from) restored no controller into the window"
                        + (why.map { " (\($0))" } ?? " (it held none)")
                        + (scenes.isEmpty ? "" : " and no scene's activity")
                } else {
                    outcome = .restored
                }
            case .declined(let declined):
                perform(planner.restorationDeclined(reason: declined), restoringMark, &pending, &warnings)
                (outcome, reason) = (.discarded, declined)
            case .none:
                perform(planner.restorationFinished(), restoringMark, &pending, &warnings)
            }
        }

        let report = LaunchReport(
            outcome: outcome, discardReason: reason, restored: restored, presentedPath: presentedPath,
            duration: uptime() - start, source: source, verdicts: plan.verdicts, actions: pending, warnings: warnings,
            note: note, scenes: scenes)
        launchReport = report
        return report
    }

    /// Preserves the current state as archive bytes (call it when the app goes to the background).
    ///
    /// - Returns: The bytes, their generation (each call's is larger) and how long it took.
    /// - Throws: `PreservationError` when two controllers share a path or the archive is over the hard limit.
    public func preserve() throws(PreservationError) -> Preservation {
        let start = uptime()
        guard let archive = try application.preserve(generation: nextGeneration, timestamp: wallClock()) else {
            throw .declinedByDelegate
        }
        let bytes: [UInt8]
        do {
            bytes = try ArchiveCodec.encode(archive, limits: limits)
        } catch {
            throw .archive(error)
        }
        // Saturates as LaunchPlanner does: a saved archive (anyone who can write the state folder's
        // file) may carry generation UInt64.max, and adding one would trap on every preservation.
        if nextGeneration < .max { nextGeneration += 1 }
        return Preservation(
            bytes: bytes, generation: archive.header.generation, duration: uptime() - start,
            warning: limits.soft < bytes.count ? "restoration archive is \(bytes.count) bytes, over the soft limit of \(limits.soft)" : nil)
    }

    /// Sends the application to the background: the host logs it and preserves (`preserve()`).
    /// - Returns: Those effects, or none when the application is not active.
    public func enterBackground() -> [AppEffect] {
        guard application.state == .active else { return [] }
        application.enterBackground()
        return [.lifecycleChanged(.background), .preserveState]
    }

    /// Brings the application back from the background.
    /// - Returns: The effect to log it, or nil when it was not in the background (nothing happened).
    public func enterForeground() -> [AppEffect]? {
        guard application.state == .background else { return nil }
        application.enterForeground()
        return [.lifecycleChanged(.active)]
    }

    /// Closes a window (`Application.requestSceneSessionDestruction(_:)`): its scene disconnects and
    /// its session and saved activity go.
    /// - Returns: `.preserveState`, so that the archive on disk drops the session at once (as UIKit
    ///   forgets it), or nil when no open session has that identifier.
    public func closeScene(session identifier: String) -> [AppEffect]? {
        guard let session = application.sceneSession(withIdentifier: identifier) else { return nil }
        application.requestSceneSessionDestruction(session)
        return [.preserveState]
    }

    /// The user's force quit: saved state is discarded (`force-quit`) and the process exits.
    public static func forceQuitEffects() -> [AppEffect] {
        let discards: [AppEffect] = LaunchPlanner.forceQuit().compactMap { action in
            if case .discardSavedState(let reason) = action { return .discardSavedState(reason) }
            return nil
        }
        return discards + [.terminate]
    }

    /// The path of the presented controller on top, joined with `/`.
    public var presentedPath: String? {
        guard let top = application.window.topViewController, top.presentingViewController != nil else { return nil }
        return top.restorationPath?.joined(separator: "/")
    }

    /// Every restoration path in the window's hierarchy, parents first, joined with `/`.
    public var paths: [String] { application.window.restorationPaths.map { $0.joined(separator: "/") } }

    /// How each path was restored at the last launch (the state JSON's `restoredVia`).
    public var restoredVia: [String: String] {
        Dictionary((launchReport?.restored ?? []).map { ($0.path, $0.via.rawValue) }, uniquingKeysWith: { $1 })
    }

    /// The last launch's outcome and discard reason, `fresh` before any (the state JSON's `launch`).
    public var launchOutcome: (outcome: String, reason: String?) {
        launchReport.map { ($0.outcome.rawValue, $0.discardReason?.rawValue) } ?? ("fresh", nil)
    }

    /// Runs the mark actions against `mark`; the others are left in `pending` for the caller.
    private func perform(
        _ actions: [LaunchAction], _ mark: any RestoringMarkStore, _ pending: inout [LaunchAction], _ warnings: inout [String]
    ) {
        for action in actions {
            do {
                switch action {
                case .setRestoringMark: try mark.set()
                case .clearRestoringMark: try mark.clear()
                case .discardSavedState: pending.append(action)
                }
            } catch {
                warnings.append("could not \(action == .setRestoringMark ? "set" : "clear") the restoring mark: \(error)")
            }
        }
    }
}
