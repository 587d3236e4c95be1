@testable import CheckIn
import RelaunchContract
import RestorationKit
import Testing

/// The app's launch: discards with their reasons, the restoring mark and the newest copy.
@Suite("Check-in launch safety")
struct LaunchSafetyTests {
    private func seedArchive(build: String = "7") throws -> ArchiveCandidate {
        let app = launchedApp(build: build)
        _ = try playSeedUntilSettings(app)
        return try candidate(app)
    }

    @Test("an archive from another build is discarded as build-mismatch and the app launches fresh")
    func buildMismatch() throws {
        let app = launchedApp(build: "8", candidates: [try seedArchive(build: "7")])
        let report = try #require(app.launchReport)
        #expect(report.outcome == .discarded && report.discardReason == .buildMismatch)
        #expect(report.actions == [.discardSavedState(.buildMismatch)])
        #expect(app.state().modal == nil)
        #expect(app.stateJSON().contains(#""launch":{"outcome":"discarded","reason":"build-mismatch"}"#))
    }

    @Test("the restoring mark is set before restoring and cleared after")
    func markAroundRestore() throws {
        let mark = SpyMark()
        _ = launchedApp(candidates: [try seedArchive()], mark: mark)
        #expect(mark.calls == ["isSet", "set", "clear"])
        #expect(!mark.value)
    }

    @Test("a mark left by a restore that crashed discards the archive as crashed-during-restore")
    func crashedDuringRestore() throws {
        let mark = SpyMark(true)
        let app = launchedApp(candidates: [try seedArchive()], mark: mark)
        let report = try #require(app.launchReport)
        #expect(report.outcome == .discarded && report.discardReason == .crashedDuringRestore)
        #expect(report.actions == [.discardSavedState(.crashedDuringRestore)])
        #expect(mark.calls == ["isSet", "clear"])
        #expect(app.state().modal == nil)
    }

    @Test("a force quit discards saved state as force-quit")
    func forceQuit() throws {
        let app = launchedApp()
        #expect(app.forceQuit() == [.discardSavedState(.forceQuit), .terminate])
        let next = CheckInApp(buildNumber: "7", camera: .denied)
        let report = next.launch(candidates: [try seedArchive()], restoringMark: MemoryRestoringMark(), forceQuitRecorded: true)
        #expect(report.discardReason == .forceQuit)
    }

    @Test("a quit that is not forced preserves first")
    func quit() {
        #expect(launchedApp().quit() == [.lifecycleChanged(.background), .preserveState, .terminate])
    }

    @Test("a corrupt archive is discarded as corrupt")
    func corrupt() throws {
        var damaged = try seedArchive()
        damaged.bytes[damaged.bytes.count / 2] ^= 0x01
        let report = try #require(launchedApp(candidates: [damaged]).launchReport)
        #expect(report.outcome == .discarded && report.discardReason == .corrupt)
        #expect(report.verdicts.first?.error?.discardReason == .corrupt)
    }

    @Test("the newest valid copy wins and generations keep growing")
    func newestCopyWins() throws {
        let app = launchedApp()
        _ = try playSeedUntilSettings(app)
        let older = try candidate(app, source: "file")
        app.foreground()
        try app.type("note", "newer note")
        let newer = try candidate(app, source: "fdstore")
        let restored = launchedApp(candidates: [older, newer])
        #expect(restored.state().modal?.note == "newer note")
        #expect(restored.launchReport?.source == "fdstore")
        #expect(try restored.preserve().generation == 3)
    }

    @Test("the launch report times the launch and counts what was restored")
    func reportFigures() throws {
        let report = try #require(launchedApp(candidates: [try seedArchive()]).launchReport)
        #expect(report.restoredCount == 6)
        #expect(report.durationMicroseconds >= 0)
        #expect(report.source == "file")
    }
}
