import RestorationKit
import Testing

/// Per-scene `extendStateRestoration()` / `completeStateRestoration()` and the restoring mark, as
/// the executable drives them through `LaunchPlanner`.
@Suite("Scene extended restoration")
struct SceneExtendedRestorationTests {
    /// One process's launch: plan with the mark, launch, clear the mark once restoration completes.
    private final class Process {
        let application: Application
        let log: CallLog
        var planner = LaunchPlanner()
        let mark: MemoryRestoringMark

        init(names: [String: String], mark: MemoryRestoringMark) {
            (application, log) = relaunchedSceneApp(names: names, extendsRestoration: true)
            self.mark = mark
        }

        func perform(_ actions: [LaunchAction]) {
            for action in actions {
                switch action {
                case .setRestoringMark: mark.value = true
                case .clearRestoringMark: mark.value = false
                case .discardSavedState: break
                }
            }
        }

        func launch(_ bytes: [UInt8]) -> LaunchPlan {
            perform(planner.prepare(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMarkFound: mark.value))
            let plan = planner.plan()
            perform(plan.actions)
            application.launch(restoringFrom: plan.archive)
            application.whenStateRestorationCompletes { [self] in perform(planner.restorationFinished()) }
            return plan
        }
    }

    /// Two windows' saved bytes, and a process launched from them whose scenes both extended
    /// restoration; `relaunch()` makes the next process with the same mark.
    private struct Launched {
        let first: Process
        let bytes: [UInt8]
        let names: [String: String]
        var mark: MemoryRestoringMark { first.mark }
        func relaunch() -> Process { Process(names: names, mark: mark) }
    }

    private func launchedFromTwoWindows() throws -> (Launched, LaunchPlan) {
        let (application, log) = sceneApp(windows: ["A", "B"])
        application.enterBackground()
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        let launched = Launched(
            first: Process(names: log.names, mark: MemoryRestoringMark()), bytes: try ArchiveCodec.encode(archive),
            names: log.names)
        return (launched, launched.first.launch(launched.bytes))
    }

    @Test("the mark stays until every scene completed; a crash in between discards as crashed-during-restore")
    func crashBetween() throws {
        let (launched, plan) = try launchedFromTwoWindows()
        let (first, mark) = (launched.first, launched.mark)
        #expect(plan.archive != nil)
        let (a, b) = (first.application.connectedScenes[0], first.application.connectedScenes[1])
        #expect(a.pendingStateRestorations == 1 && b.pendingStateRestorations == 1)
        #expect(first.application.isRestoringState && mark.value)
        a.completeStateRestoration()
        #expect(!a.isRestoringState && b.isRestoringState)
        #expect(first.application.isRestoringState && mark.value, "B has not completed: the mark must stay")
        // The process dies here, B never completed.

        let second = launched.relaunch()
        #expect(second.launch(launched.bytes).discardReason == .crashedDuringRestore)
        #expect(second.application.openSessions.allSatisfy { $0.stateRestorationActivity == nil })
        #expect(!mark.value)
    }

    @Test("completing every scene clears the mark; the next launch restores")
    func completeAll() throws {
        let (launched, _) = try launchedFromTwoWindows()
        let (first, mark) = (launched.first, launched.mark)
        var completions = 0
        first.application.whenStateRestorationCompletes { completions += 1 }
        for scene in first.application.connectedScenes { scene.completeStateRestoration() }
        #expect(!first.application.isRestoringState && !mark.value && completions == 1)
        #expect(first.application.connectedScenes.allSatisfy { !$0.isRestoringState })
        // Extra completions change nothing.
        first.application.connectedScenes[0].completeStateRestoration()
        #expect(completions == 1)

        let second = launched.relaunch()
        #expect(second.launch(launched.bytes).archive != nil)
        #expect(second.application.openSessions.map { noteDelegate(of: $0)?.note } == ["text of A", "text of B"])
    }

    @Test("closing a window that is still restoring ends its extension")
    func closeWhileRestoring() throws {
        let (launched, _) = try launchedFromTwoWindows()
        let (process, mark) = (launched.first, launched.mark)
        process.application.connectedScenes[0].completeStateRestoration()
        process.application.requestSceneSessionDestruction(process.application.openSessions[1])
        #expect(!process.application.isRestoringState && !mark.value)
    }
}
