/// Decides, with no I/O, whether a launch restores saved state, launches fresh or discards it, and says
/// what the caller must do around that (a value-type state machine; test it with plain values).
///
/// A launch has two steps, so that nothing is decoded before the restoring mark is durably set:
/// `prepare(candidates:restoringMarkFound:)` says what to do first (set the mark when there is saved
/// state), then `plan()` decodes the candidates and decides. An archive whose decoding crashes the
/// app (a trap, memory exhausted, the watchdog) thus leaves the mark behind, and the next launch
/// discards it unread instead of crashing again until systemd's start limit.
///
/// The rules, as iOS applies them:
/// - the restoring mark left by a launch that died while restoring (or decoding) discards the saved
///   state without reading it (`crashed-during-restore`);
/// - otherwise the newest readable candidate by generation is restored, the mark set before it was
///   decoded and cleared after it was restored (`restorationFinished()`); which build wrote it is for
///   the app delegate to judge (`restorationDeclined(reason:)`), as UIKit leaves it to
///   `shouldRestoreApplicationState`;
/// - when no candidate is readable, the reason is the one of the candidate read furthest
///   (`unsupported-format`, then `too-large`, `corrupt`), ties to the newer one, and the mark is cleared.
///
/// A force quit discards saved state when it happens (`forceQuit()`), so no later launch has to know of it.
public struct LaunchPlanner: Sendable {
    private enum State: Sendable {
        case idle
        /// `prepare` was called; `markSet`: it asked for the mark to be set.
        case prepared(candidates: [ArchiveCandidate], restoringMarkFound: Bool, markSet: Bool)
        case restoring
        case done
    }

    /// The size limits candidates are read with.
    public let limits: ArchiveLimits
    private var state = State.idle
    /// Reads one candidate: `ArchiveCodec.decode`, or a test's stand-in that records when it runs.
    private let decode: @Sendable ([UInt8], ArchiveLimits) throws(ArchiveError) -> DecodedArchive

    /// A planner that reads candidates with `limits`.
    public init(limits: ArchiveLimits = .default) {
        self.init(limits: limits) { (bytes, limits) throws(ArchiveError) in try ArchiveCodec.decode(bytes, limits: limits) }
    }

    /// A planner that reads candidates with `decode` (tests observe when decoding happens).
    package init(
        limits: ArchiveLimits, decode: @escaping @Sendable ([UInt8], ArchiveLimits) throws(ArchiveError) -> DecodedArchive
    ) {
        self.limits = limits
        self.decode = decode
    }

    /// The first step of a launch, before anything is decoded: what to do now.
    ///
    /// - Parameters:
    ///   - candidates: Up to a few copies of saved state (the file and the fd store's copy); ties in
    ///     generation go to the first given.
    ///   - restoringMarkFound: Whether the restoring mark is there (the last restore never finished).
    /// - Returns: `[.setRestoringMark]` when there is saved state to decode (set it durably before
    ///   calling `plan()`), else nothing.
    public mutating func prepare(candidates: [ArchiveCandidate], restoringMarkFound: Bool) -> [LaunchAction] {
        let markSet = !restoringMarkFound && !candidates.isEmpty
        state = .prepared(candidates: candidates, restoringMarkFound: restoringMarkFound, markSet: markSet)
        return markSet ? [.setRestoringMark] : []
    }

    /// The second step: the plan for the candidates `prepare(candidates:restoringMarkFound:)` was given.
    ///
    /// Candidates are decoded only when no restoring mark was found; a mark found discards them unread.
    /// - Returns: The decision, the actions to run now (a discard, then clearing the mark) and what
    ///   each candidate was found to be (none when they were not read). Without a `prepare` first, it
    ///   plans a launch with no saved state.
    public mutating func plan() -> LaunchPlan {
        guard case .prepared(let candidates, let markFound, let markSet) = state else {
            state = .done
            return LaunchPlan(decision: .fresh, actions: [], verdicts: [], nextGeneration: 1, warnings: [])
        }
        state = .done
        if markFound {
            // Not decoded: decoding them may be what crashed. The generations are still honoured
            // (read from checksummed headers only), should a copy outlive the discard.
            let highest = candidates.compactMap { ArchiveCodec.generation(of: $0.bytes, limits: limits) }.max() ?? 0
            return LaunchPlan(
                decision: .discard(.crashedDuringRestore),
                actions: [.discardSavedState(.crashedDuringRestore), .clearRestoringMark], verdicts: [],
                nextGeneration: highest == .max ? .max : highest + 1, warnings: [])
        }

        let judged = candidates.map(judge)
        let verdicts = judged.map(\.verdict)
        let valid = judged.compactMap { entry in entry.verdict.isValid ? entry.archive.map { (entry.verdict.source, $0) } : nil }
        let highest = verdicts.compactMap(\.header?.generation).max() ?? 0
        var plan = LaunchPlan(
            decision: .fresh, actions: [], verdicts: verdicts,
            nextGeneration: highest == .max ? .max : highest + 1,
            warnings: verdicts.compactMap(\.warning))

        if let newest = valid.max(by: { $0.1.header.generation < $1.1.header.generation }) {
            // The mark set in `prepare` stays until the restoration finishes.
            plan.decision = .restore(newest.1, source: newest.0)
            state = .restoring
            return plan
        }
        if let best = Self.bestInvalid(verdicts) {
            plan.decision = .discard(best)
            plan.actions = [.discardSavedState(best)]
        }
        // Discarded first, then the mark cleared: a kill between the two discards again.
        if markSet { plan.actions.append(.clearRestoringMark) }
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
            let decoded = try decode(candidate.bytes, limits)
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
