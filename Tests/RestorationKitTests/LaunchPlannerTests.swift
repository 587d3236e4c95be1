import RestorationKit
import Testing

/// The launch planner's decisions and actions, with no I/O.
@Suite("Launch planner")
struct LaunchPlannerTests {
    private func candidate(_ source: String, generation: UInt64, build: String = "1") throws -> ArchiveCandidate {
        ArchiveCandidate(source: source, bytes: try sampleBytes(generation: generation, build: build))
    }

    private func corrupt(_ source: String, generation: UInt64) throws -> ArchiveCandidate {
        var bytes = try sampleBytes(generation: generation)
        bytes[bytes.count - 1] ^= 0xFF
        return ArchiveCandidate(source: source, bytes: bytes)
    }

    @Test("no saved state launches fresh and does nothing")
    func fresh() {
        var planner = LaunchPlanner()
        let plan = planner.plan(candidates: [], restoringMarkFound: false)
        #expect(plan.decision == .fresh)
        #expect(plan.actions.isEmpty)
        #expect(plan.nextGeneration == 1)
        #expect(planner.restorationFinished().isEmpty)
    }

    @Test("a valid archive is restored between setting and clearing the restoring mark")
    func restoreMarksAround() throws {
        var planner = LaunchPlanner()
        let plan = planner.plan(candidates: [try candidate("file", generation: 4)], restoringMarkFound: false)
        #expect(plan.decision == .restore(sampleArchive(generation: 4), source: "file"))
        #expect(plan.actions == [.setRestoringMark])
        #expect(plan.nextGeneration == 5)
        #expect(planner.restorationFinished() == [.clearRestoringMark])
        #expect(planner.restorationFinished().isEmpty, "only once")
    }

    @Test("the newest valid candidate wins by generation")
    func newestValidWins() throws {
        var planner = LaunchPlanner()
        let plan = planner.plan(
            candidates: [try candidate("file", generation: 3), try candidate("fdstore", generation: 5)], restoringMarkFound: false)
        #expect(plan.archive?.header.generation == 5)
        guard case .restore(_, let source) = plan.decision else { Issue.record("not restored"); return }
        #expect(source == "fdstore")
    }

    @Test("a newer but corrupt candidate loses to an older valid one")
    func newerCorruptLoses() throws {
        var planner = LaunchPlanner()
        let plan = planner.plan(
            candidates: [try corrupt("file", generation: 9), try candidate("fdstore", generation: 8)], restoringMarkFound: false)
        #expect(plan.archive?.header.generation == 8)
        #expect(plan.verdicts.map(\.isValid) == [false, true])
        #expect(plan.verdicts[0].error?.discardReason == .corrupt)
    }

    @Test("equal generations go to the first candidate given")
    func tieGoesToFirst() throws {
        var planner = LaunchPlanner()
        let plan = planner.plan(
            candidates: [try candidate("file", generation: 2), try candidate("fdstore", generation: 2)], restoringMarkFound: false)
        guard case .restore(_, let source) = plan.decision else { Issue.record("not restored"); return }
        #expect(source == "file")
    }

    @Test("an archive from another build is planned for restoration: the app delegate judges the build")
    func otherBuildGoesToTheDelegate() throws {
        var planner = LaunchPlanner()
        let plan = planner.plan(candidates: [try candidate("file", generation: 6, build: "old")], restoringMarkFound: false)
        #expect(plan.archive?.header.buildVersion == "old")
        #expect(plan.actions == [.setRestoringMark])
        #expect(plan.nextGeneration == 7)
        #expect(planner.restorationDeclined(reason: .buildMismatch) == [.clearRestoringMark, .discardSavedState(.buildMismatch)])
    }

    @Test("the restoring mark means the last restore crashed: discard and clear the mark")
    func crashedDuringRestore() throws {
        var planner = LaunchPlanner()
        let plan = planner.plan(candidates: [try candidate("file", generation: 1)], restoringMarkFound: true)
        #expect(plan.decision == .discard(.crashedDuringRestore))
        #expect(plan.actions == [.discardSavedState(.crashedDuringRestore), .clearRestoringMark])
        #expect(planner.restorationFinished().isEmpty)
    }

    @Test("a force quit discards saved state when it happens")
    func forceQuit() {
        #expect(LaunchPlanner.forceQuit() == [.discardSavedState(.forceQuit)])
    }

    @Test("with no valid candidate the reason is the best candidate's", arguments: [
        (["corrupt"], DiscardReason.corrupt),
        (["corrupt", "large"], .tooLarge),
        (["unsupported", "corrupt"], .unsupportedFormat),
        (["corrupt", "large", "unsupported"], .unsupportedFormat),
    ])
    func bestInvalidReason(kinds: [String], reason: DiscardReason) throws {
        let candidates = try kinds.enumerated().map { index, kind in
            switch kind {
            case "corrupt": return try corrupt("c\(index)", generation: 9)
            case "large": return ArchiveCandidate(source: "c\(index)", bytes: [UInt8](repeating: 0, count: ArchiveLimits.default.hard + 1))
            default:
                var bytes = try sampleBytes()
                bytes[4] = 7
                return ArchiveCandidate(source: "c\(index)", bytes: bytes)
            }
        }
        var planner = LaunchPlanner()
        let plan = planner.plan(candidates: candidates, restoringMarkFound: false)
        #expect(plan.decision == .discard(reason))
        #expect(plan.actions == [.discardSavedState(reason)])
    }

    @Test("an oversized candidate is refused as too-large; one over the soft limit warns")
    func sizeLimits() throws {
        let bytes = try sampleBytes()
        var strict = LaunchPlanner(limits: ArchiveLimits(soft: 10, hard: 20))
        #expect(strict.plan(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMarkFound: false).decision
            == .discard(.tooLarge))
        var lenient = LaunchPlanner(limits: ArchiveLimits(soft: 10, hard: 10_000))
        let plan = lenient.plan(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMarkFound: false)
        #expect(plan.archive != nil)
        #expect(plan.warnings.count == 1)
    }

    @Test("a restoration the app delegate declines is discarded and the mark cleared")
    func declined() throws {
        var planner = LaunchPlanner()
        _ = planner.plan(candidates: [try candidate("file", generation: 1)], restoringMarkFound: false)
        #expect(planner.restorationDeclined(reason: .declined) == [.clearRestoringMark, .discardSavedState(.declined)])
        #expect(planner.restorationDeclined(reason: .declined).isEmpty, "only once")
    }
}
