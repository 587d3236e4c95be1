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
        let (first, plan) = planner.both(candidates: [], restoringMarkFound: false)
        #expect(first.isEmpty, "no mark without saved state")
        #expect(plan.decision == .fresh)
        #expect(plan.actions.isEmpty)
        #expect(plan.nextGeneration == 1)
        #expect(planner.restorationFinished().isEmpty)
    }

    @Test("a valid archive is decoded and restored between setting and clearing the restoring mark")
    func restoreMarksAround() throws {
        var planner = LaunchPlanner()
        let (first, plan) = planner.both(candidates: [try candidate("file", generation: 4)], restoringMarkFound: false)
        #expect(first == [.setRestoringMark])
        #expect(plan.decision == .restore(sampleArchive(generation: 4), source: "file"))
        #expect(plan.actions.isEmpty)
        #expect(plan.nextGeneration == 5)
        #expect(planner.restorationFinished() == [.clearRestoringMark])
        #expect(planner.restorationFinished().isEmpty, "only once")
    }

    @Test("the newest valid candidate wins by generation")
    func newestValidWins() throws {
        var planner = LaunchPlanner()
        let (_, plan) = planner.both(
            candidates: [try candidate("file", generation: 3), try candidate("fdstore", generation: 5)], restoringMarkFound: false)
        #expect(plan.archive?.header.generation == 5)
        guard case .restore(_, let source) = plan.decision else { Issue.record("not restored"); return }
        #expect(source == "fdstore")
    }

    @Test("a newer but corrupt candidate loses to an older valid one")
    func newerCorruptLoses() throws {
        var planner = LaunchPlanner()
        let (_, plan) = planner.both(
            candidates: [try corrupt("file", generation: 9), try candidate("fdstore", generation: 8)], restoringMarkFound: false)
        #expect(plan.archive?.header.generation == 8)
        #expect(plan.verdicts.map(\.isValid) == [false, true])
        #expect(plan.verdicts[0].error?.discardReason == .corrupt)
    }

    @Test("equal generations go to the first candidate given")
    func tieGoesToFirst() throws {
        var planner = LaunchPlanner()
        let (_, plan) = planner.both(
            candidates: [try candidate("file", generation: 2), try candidate("fdstore", generation: 2)], restoringMarkFound: false)
        guard case .restore(_, let source) = plan.decision else { Issue.record("not restored"); return }
        #expect(source == "file")
    }

    @Test("an archive from another build is planned for restoration: the app delegate judges the build")
    func otherBuildGoesToTheDelegate() throws {
        var planner = LaunchPlanner()
        let (first, plan) = planner.both(candidates: [try candidate("file", generation: 6, build: "old")], restoringMarkFound: false)
        #expect(plan.archive?.header.buildVersion == "old")
        #expect(first == [.setRestoringMark])
        #expect(plan.nextGeneration == 7)
        #expect(planner.restorationDeclined(reason: .buildMismatch) == [.clearRestoringMark, .discardSavedState(.buildMismatch)])
    }

    @Test("the restoring mark means the last restore crashed: discard and clear the mark")
    func crashedDuringRestore() throws {
        var planner = LaunchPlanner()
        let (first, plan) = planner.both(candidates: [try candidate("file", generation: 1)], restoringMarkFound: true)
        #expect(first.isEmpty, "the mark is there already")
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
        let (first, plan) = planner.both(candidates: candidates, restoringMarkFound: false)
        #expect(first == [.setRestoringMark], "set before decoding")
        #expect(plan.decision == .discard(reason))
        #expect(plan.actions == [.discardSavedState(reason), .clearRestoringMark])
    }

    @Test("an oversized candidate is refused as too-large; one over the soft limit warns")
    func sizeLimits() throws {
        let bytes = try sampleBytes()
        var strict = LaunchPlanner(limits: ArchiveLimits(soft: 10, hard: 20))
        #expect(strict.both(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMarkFound: false).plan.decision
            == .discard(.tooLarge))
        var lenient = LaunchPlanner(limits: ArchiveLimits(soft: 10, hard: 10_000))
        let plan = lenient.both(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMarkFound: false).plan
        #expect(plan.archive != nil)
        #expect(plan.warnings.count == 1)
    }

    @Test("a restoration the app delegate declines is discarded and the mark cleared")
    func declined() throws {
        var planner = LaunchPlanner()
        _ = planner.both(candidates: [try candidate("file", generation: 1)], restoringMarkFound: false)
        #expect(planner.restorationDeclined(reason: .declined) == [.clearRestoringMark, .discardSavedState(.declined)])
        #expect(planner.restorationDeclined(reason: .declined).isEmpty, "only once")
    }
    @Test("nothing is decoded before the restoring mark is asked for, and a mark found decodes nothing")
    func markBeforeDecoding() throws {
        let decodes = Counter()
        let counting: @Sendable ([UInt8], ArchiveLimits) throws(ArchiveError) -> DecodedArchive = { (bytes, limits) throws(ArchiveError) in
            decodes.add()
            return try ArchiveCodec.decode(bytes, limits: limits)
        }
        var planner = LaunchPlanner(limits: .default, decode: counting)
        #expect(planner.prepare(candidates: [try corrupt("file", generation: 3)], restoringMarkFound: false) == [.setRestoringMark])
        #expect(decodes.value == 0, "prepare decodes nothing")
        let plan = planner.plan()
        #expect(decodes.value == 1)
        #expect(plan.actions == [.discardSavedState(.corrupt), .clearRestoringMark], "discarded, then the mark cleared")

        var after = LaunchPlanner(limits: .default, decode: counting)
        #expect(after.prepare(candidates: [try candidate("file", generation: 7)], restoringMarkFound: true).isEmpty)
        let discarded = after.plan()
        #expect(decodes.value == 1, "a mark found discards the candidates unread: decoding them may be what crashed")
        #expect(discarded.decision == .discard(.crashedDuringRestore) && discarded.verdicts.isEmpty)
        #expect(discarded.nextGeneration == 8, "the next archive is still numbered above the discarded one")
    }

    @Test("a generation is read from a checksummed header only")
    func generationWithoutDecoding() throws {
        #expect(ArchiveCodec.generation(of: try sampleBytes(generation: 41)) == 41)
        #expect(ArchiveCodec.generation(of: try corrupt("file", generation: 41).bytes) == nil)
        #expect(ArchiveCodec.generation(of: Array(try sampleBytes(generation: 41).prefix(20))) == nil)
        #expect(ArchiveCodec.generation(of: try sampleBytes(), limits: ArchiveLimits(soft: 1, hard: 10)) == nil)
        // A payload too short to hold a generation, its length and checksum put right: nil, not a trap.
        for length in 0..<8 {
            #expect(ArchiveCodec.generation(of: resealed(Array(try sampleBytes().prefix(ArchiveCodec.prefixSize + length)))) == nil)
        }
    }
}

/// A count that a `@Sendable` closure can add to.
final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func add() { value += 1 }
}

extension LaunchPlanner {
    /// Both steps of a launch, as `RestorationSession` runs them: what `prepare` asked to do first, and the plan.
    mutating func both(candidates: [ArchiveCandidate], restoringMarkFound: Bool) -> (first: [LaunchAction], plan: LaunchPlan) {
        let first = prepare(candidates: candidates, restoringMarkFound: restoringMarkFound)
        return (first, plan())
    }
}
