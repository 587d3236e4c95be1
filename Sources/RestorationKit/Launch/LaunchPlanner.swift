/// Decides, with no I/O, whether a launch restores saved state, launches fresh or discards it, and says
/// what the caller must do around that (a value-type state machine; test it with plain values).
///
/// The rules, as iOS applies them:
/// - the restoring mark left by a launch that died while restoring discards it (`crashed-during-restore`);
/// - otherwise the newest readable candidate by generation is restored, with the mark set before and
///   cleared after (`restorationFinished()`); which build wrote it is for the app delegate to judge
///   (`restorationDeclined(reason:)`), as UIKit leaves it to `shouldRestoreApplicationState`;
/// - when no candidate is readable, the reason is the one of the candidate read furthest
///   (`unsupported-format`, then `too-large`, `corrupt`), ties to the newer one.
///
/// A force quit discards saved state when it happens (`forceQuit()`), so no later launch has to know of it.
public struct LaunchPlanner: Sendable {
    private enum State: Sendable {
        case idle
        case restoring
        case done
    }

    /// The size limits candidates are read with.
    public let limits: ArchiveLimits
    private var state = State.idle

    /// A planner that reads candidates with `limits`.
    public init(limits: ArchiveLimits = .default) {
        self.limits = limits
    }

    /// The plan for a launch that found `candidates` and the given marks.
    ///
    /// - Parameters:
    ///   - candidates: Up to a few copies of saved state (the file and the fd store's copy); ties in
    ///     generation go to the first given.
    ///   - restoringMarkFound: Whether the restoring mark is there (the last restore never finished).
    /// - Returns: The decision, the actions to run first and what each candidate was found to be.
    public mutating func plan(candidates: [ArchiveCandidate], restoringMarkFound: Bool) -> LaunchPlan {
        let judged = candidates.map(judge)
        let verdicts = judged.map(\.verdict)
        let valid = judged.compactMap { entry in entry.verdict.isValid ? entry.archive.map { (entry.verdict.source, $0) } : nil }
        let highest = verdicts.compactMap(\.header?.generation).max() ?? 0
        var plan = LaunchPlan(
            decision: .fresh, actions: [], verdicts: verdicts,
            nextGeneration: highest == .max ? .max : highest + 1,
            warnings: verdicts.compactMap(\.warning))
        state = .done

        if restoringMarkFound {
            plan.decision = .discard(.crashedDuringRestore)
            plan.actions = [.discardSavedState(.crashedDuringRestore), .clearRestoringMark]
        } else if let newest = valid.max(by: { $0.1.header.generation < $1.1.header.generation }) {
            plan.decision = .restore(newest.1, source: newest.0)
            plan.actions = [.setRestoringMark]
            state = .restoring
        } else if let best = Self.bestInvalid(verdicts) {
            plan.decision = .discard(best)
            plan.actions = [.discardSavedState(best)]
        }
        return plan
    }

    /// The actions after the planned restoration finished: clear the restoring mark.
    public mutating func restorationFinished() -> [LaunchAction] {
        guard case .restoring = state else { return [] }
        state = .done
        return [.clearRestoringMark]
    }

    /// The actions when the app delegate declined the planned archive: clear the mark and discard it.
    ///
    /// - Parameter reason: Why: `build-mismatch` when the archive came from another build, else `declined`
    ///   (`Application.RestorationOutcome.declined` carries it).
    public mutating func restorationDeclined(reason: DiscardReason) -> [LaunchAction] {
        guard case .restoring = state else { return [] }
        state = .done
        return [.clearRestoringMark, .discardSavedState(reason)]
    }

    /// The actions for the user's force quit: discard saved state.
    public static func forceQuit() -> [LaunchAction] { [.discardSavedState(.forceQuit)] }

    private func judge(_ candidate: ArchiveCandidate) -> (verdict: CandidateVerdict, archive: RestorationArchive?) {
        var verdict = CandidateVerdict(source: candidate.source, byteCount: candidate.bytes.count)
        var archive: RestorationArchive?
        do {
            let decoded = try ArchiveCodec.decode(candidate.bytes, limits: limits)
            archive = decoded.archive
            verdict.header = decoded.archive.header
            verdict.warning = decoded.warning.map { "\(candidate.source): \($0)" }
        } catch {
            verdict.error = error
        }
        return (verdict, archive)
    }

    private static func bestInvalid(_ verdicts: [CandidateVerdict]) -> DiscardReason? {
        let ranked = verdicts.compactMap { verdict in
            verdict.error.map { ($0.discardReason, verdict.header?.generation ?? 0) }
        }
        return ranked.max { ($0.0.readingProgress, $0.1) < ($1.0.readingProgress, $1.1) }?.0
    }
}
