public import RelaunchApp
public import RestorationKit

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
        let plan = planner.plan(candidates: candidates, restoringMarkFound: markFound)
        nextGeneration = plan.nextGeneration
        warnings += plan.warnings
        perform(plan.actions, restoringMark, &pending, &warnings)

        var outcome = LaunchReport.Outcome.fresh
        var reason = plan.discardReason
        var restored: [LaunchReport.RestoredPath] = []
        var source: String?
        var note: String?
        switch plan.decision {
        case .fresh, .discard:
            application.launch(restoringFrom: nil)
            outcome = reason == nil ? .fresh : .discarded
        case .restore(let archive, let from):
            switch application.launch(restoringFrom: archive) {
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
                if restored.isEmpty {
                    outcome = .fresh
                    let why = report.skipped.first.map { "\($0.path.joined(separator: "/")) was not restored: \($0.reason)" }
                    note = "the saved state from \(from) restored no controller into the window"
                        + (why.map { " (\($0))" } ?? " (it held none)")
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
        modal?.form.resume(camera: camera)

        let report = LaunchReport(
            outcome: outcome, discardReason: reason, restored: restored, presentedPath: presentedPath,
            duration: uptime() - start, source: source, verdicts: plan.verdicts, actions: pending, warnings: warnings,
            note: note)
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
        nextGeneration += 1
        return Preservation(
            bytes: bytes, generation: archive.header.generation, duration: uptime() - start,
            warning: limits.soft < bytes.count ? "restoration archive is \(bytes.count) bytes, over the soft limit of \(limits.soft)" : nil)
    }

    /// The user's force quit: saved state is discarded (`force-quit`) and the process exits.
    public func forceQuit() -> [AppEffect] {
        let discards: [AppEffect] = LaunchPlanner.forceQuit().compactMap { action in
            if case .discardSavedState(let reason) = action { return .discardSavedState(reason) }
            return nil
        }
        return discards + [.terminate]
    }

    /// A normal quit: the app goes to the background (preserving its state) and the process exits.
    public func quit() -> [AppEffect] { background() + [.terminate] }

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

    /// The path of the presented controller on top, joined with `/`.
    var presentedPath: String? {
        guard let top = application.window.topViewController, top.presentingViewController != nil else { return nil }
        return top.restorationPath?.joined(separator: "/")
    }
}
