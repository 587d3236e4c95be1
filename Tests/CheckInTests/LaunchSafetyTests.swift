@testable import CheckIn
import RelaunchApp
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

    @Test("a saved archive of generation UInt64.max restores, and preserving after it does not trap (found by tests/fuzz archive-restore)")
    func largestGeneration() throws {
        var archive = try ArchiveCodec.decode(try seedArchive().bytes).archive
        archive.header.generation = .max
        let app = launchedApp(candidates: [ArchiveCandidate(source: "file", bytes: try ArchiveCodec.encode(archive))])
        #expect(app.launchReport?.outcome == .restored)
        #expect(try app.preserve().generation == .max)
        #expect(try app.preserve().generation == .max, "the generation stays at the largest, as the launch planner's")
    }

    @Test("the restoring mark is set before restoring and cleared after")
    func markAroundRestore() throws {
        let mark = SpyMark()
        _ = launchedApp(candidates: [try seedArchive()], mark: mark)
        #expect(mark.calls == ["isSet", "set", "clear"])
        #expect(!mark.value)
    }

    @Test("an extended restoration keeps the mark until it completes; a crash before that discards")
    func extendedRestoration() throws {
        let before = launchedApp()
        _ = try playSeedUntilSettings(before)
        var archive = try ArchiveCodec.decode(try candidate(before).bytes).archive
        archive.controllers[0].restorationClassName = RestorationRegistry.name(of: SlowTabs.self)
        let bytes = try ArchiveCodec.encode(archive)

        let mark = SpyMark()
        let app = CheckInApp(buildNumber: "7", camera: .denied, wallClock: { 1_000 })
        app.application.registry.register(SlowTabs.self)
        let report = app.launch(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMark: mark)
        #expect(report.outcome == .restored)
        #expect(app.state().modal?.note == "window seat, please")
        #expect(mark.calls == ["isSet", "set"], "the mark stays while restoration is extended")
        #expect(mark.value)

        // A crash now: the next launch finds the mark and discards.
        let next = launchedApp(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], mark: SpyMark(true))
        #expect(next.launchReport?.discardReason == .crashedDuringRestore)

        app.application.completeStateRestoration()
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

    @Test("a force quit discards saved state as force-quit, then exits, and preserves nothing")
    func forceQuit() throws {
        let app = launchedApp()
        _ = try playSeedUntilSettings(app)
        app.foreground()
        #expect(app.forceQuit() == [.discardSavedState(.forceQuit), .terminate])
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

    @Test("the restoring mark is set before saved state is decoded, so a decode that crashes is discarded next launch")
    func markBeforeDecoding() throws {
        var damaged = try seedArchive()
        damaged.bytes[damaged.bytes.count / 2] ^= 0x01
        let mark = SpyMark()
        let report = try #require(launchedApp(candidates: [damaged], mark: mark).launchReport)
        // Set although the archive turned out unreadable: it was set before decoding found that out.
        #expect(mark.calls == ["isSet", "set", "clear"])
        #expect(report.discardReason == .corrupt && !mark.value)

        // Had decoding crashed, the mark would be there at the next launch: discarded unread.
        let next = launchedApp(candidates: [damaged], mark: SpyMark(true))
        #expect(next.launchReport?.discardReason == .crashedDuringRestore)
        #expect(next.launchReport?.verdicts.isEmpty == true, "not decoded again")
    }

    @Test("no saved state sets no mark")
    func noMarkWhenFresh() {
        let mark = SpyMark()
        _ = launchedApp(mark: mark)
        #expect(mark.calls == ["isSet"])
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

    @Test("the launch report times the launch on the injected clock and counts what was restored")
    func reportFigures() throws {
        let ticks = Ticks(step: .microseconds(1_250))
        let app = CheckInApp(buildNumber: "7", camera: .denied, wallClock: { 1_000 }, uptime: ticks.next)
        let report = app.launch(candidates: [try seedArchive()], restoringMark: MemoryRestoringMark())
        #expect(report.restoredCount == 6)
        #expect(report.duration == .microseconds(1_250), "one tick between the launch's start and end")
        #expect(report.durationMicroseconds == 1_250)
        #expect(report.source == "file")
        #expect(Duration.seconds(2).microseconds + Duration.nanoseconds(1_999).microseconds == 2_000_001)
    }

    @Test("an archive that restores nothing into the window launches fresh, says why, and is kept")
    func restoredNothing() throws {
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "7", timestamp: 0, generation: 3),
            applicationState: ["App-Build-Number": .string("7")],
            controllers: [ArchivedController(path: ["Gone"], className: "Gone", restorationClassName: nil, relationships: [], state: [:])])
        let mark = SpyMark()
        let app = launchedApp(candidates: [ArchiveCandidate(source: "file", bytes: try ArchiveCodec.encode(archive))], mark: mark)
        let report = try #require(app.launchReport)
        #expect(report.outcome == .fresh && report.discardReason == nil)
        #expect(report.restored.isEmpty)
        #expect(report.note == "the saved state from file restored no controller into the window "
            + "(Gone was not restored: no restoration class, app delegate, existing controller or storyboard had it)")
        #expect(report.actions.isEmpty)
        #expect(mark.calls == ["isSet", "set", "clear"])
        #expect(app.stateJSON().contains(#""launch":{"outcome":"fresh","reason":null}"#))
    }

    @Test("a restore that finds controllers the window never shows claims none of them")
    func foundButNotShown() throws {
        let before = launchedApp()
        _ = try playSeedUntilSettings(before)
        let archive = try ArchiveCodec.decode(try candidate(before).bytes).archive
        var orphaned = archive
        // Without its tab bar, the check-in tab is found by its restoration class but has no place in the window.
        orphaned.controllers = archive.controllers.map { record in
            var record = record
            record.path = Array(record.path.dropFirst())
            return record
        }.filter { $0.path.first == RestorationID.checkIn }
        let app = launchedApp(candidates: [ArchiveCandidate(source: "file", bytes: try ArchiveCodec.encode(orphaned))])
        let report = try #require(app.launchReport)
        #expect(report.outcome == .fresh)
        #expect(report.restored.isEmpty)
        #expect(report.warnings.contains("CheckInViewController was not restored: it was found but never reached the window's hierarchy"))
        #expect(app.state().modal == nil)
    }
}

/// A monotonic clock for tests that moves by `step` at each reading.
final class Ticks: @unchecked Sendable {
    private var now = Duration.zero
    private let step: Duration
    init(step: Duration) { self.step = step }
    func next() -> Duration {
        defer { now += step }
        return now
    }
}

/// The seed's tab bar, restored by a class that extends restoration (it would load data in the background).
final class SlowTabs: ViewControllerRestoration {
    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        coder.application?.extendStateRestoration()
        return TabViewController.viewController(withRestorationIdentifierPath: identifierComponents, coder: coder)
    }
}
