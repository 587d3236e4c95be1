import RelaunchApp
import RestorationKit
import Testing

/// Two windows edited and preserved by one instance of `SceneTestApp`: the archive's bytes, the
/// sessions in window order, and the app (in the background).
func twoWindowsPreserved(notes: [String] = ["first note", "second note"]) throws -> (bytes: [UInt8], sessions: [String], app: SceneTestApp) {
    let app = SceneTestApp()
    app.launch(candidates: [], restoringMark: MemoryRestoringMark())
    _ = try app.tap("open")
    let sessions = app.openSceneSessions
    for (session, note) in zip(sessions, notes) { _ = try app.type(session, note) }
    #expect(app.background() == [.lifecycleChanged(.background), .preserveState])
    return (try app.preserve().bytes, sessions, app)
}

/// `bytes` with one byte of `text` flipped inside its session record, the file's checksum made right
/// again: that session's own checksum no longer holds, the file's does.
func damagingRecord(containing text: String, in bytes: [UInt8]) throws -> [UInt8] {
    let needle = Array(text.utf8)
    let at = try #require(bytes.indices.first { bytes[$0...].starts(with: needle) }, "no \(text) in the archive")
    var damaged = bytes
    damaged[at] ^= 0x20
    let sum = CRC32.checksum(damaged[16...], continuing: CRC32.checksum(damaged[4..<12]))
    for index in 0..<4 { damaged[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
    return damaged
}

@Suite("A scene-based app's launch report")
struct SceneLaunchReportTests {
    @Test("a pure-scene restore is reported restored, with each session's activity, in the report and the state JSON")
    func pureSceneRestore() throws {
        let (bytes, sessions, _) = try twoWindowsPreserved()
        let app = SceneTestApp()
        let report = app.launch(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMark: MemoryRestoringMark())
        #expect(report.outcome == .restored, "note: \(report.note ?? "none")")
        #expect(report.restored.isEmpty, "no controller: the restore is the scenes'")
        #expect(report.note == nil)
        #expect(report.scenes.map(\.session) == sessions)
        #expect(report.scenes.map(\.outcome) == [.restored, .restored])
        #expect(report.scenes.map(\.activityType) == [SceneTestApp.activityType, SceneTestApp.activityType])
        #expect(report.scenes.map(\.title) == ["note first no", "note second n"])
        #expect(sessions.map(app.note) == ["first note", "second note"])
        let json = app.stateJSON()
        #expect(json.contains(#""launch":{"outcome":"restored","reason":null,"scenes":[{"activityType":"org.relaunch.tests.note","outcome":"restored","reason":null,"session":"\#(sessions[0])","title":"note first no"}"#), "\(json)")
    }

    @Test("one damaged session record: the launch is restored, that session discarded with its own reason, the other restored")
    func oneDamagedSession() throws {
        let (bytes, sessions, _) = try twoWindowsPreserved()
        let damaged = try damagingRecord(containing: "second note", in: bytes)
        let app = SceneTestApp()
        let report = app.launch(candidates: [ArchiveCandidate(source: "file", bytes: damaged)], restoringMark: MemoryRestoringMark())
        #expect(report.outcome == .restored)
        #expect(report.discardReason == nil)
        #expect(report.scenes.map(\.outcome) == [.restored, .discarded])
        #expect(report.scenes.map(\.discardReason) == [nil, .corrupt])
        #expect(report.scenes[1].session == sessions[1])
        #expect(report.scenes[1].detail?.contains("checksum") == true, "\(report.scenes[1].detail ?? "nil")")
        #expect(report.scenes[1].activityType == nil)
    }

    @Test("an archive the app delegate declines: the launch is discarded and so is every session's state, with that reason")
    func declined() throws {
        let (bytes, _, _) = try twoWindowsPreserved()
        let app = SceneTestApp()
        app.delegate.restores = false
        let report = app.launch(candidates: [ArchiveCandidate(source: "file", bytes: bytes)], restoringMark: MemoryRestoringMark())
        #expect(report.outcome == .discarded)
        #expect(report.scenes.map(\.outcome) == [.discarded, .discarded])
        #expect(report.scenes.map(\.discardReason) == [.declined, .declined])
    }

    @Test("a first launch opens one fresh window; an app without scenes reports none")
    func freshLaunch() {
        let app = SceneTestApp()
        let report = app.launch(candidates: [], restoringMark: MemoryRestoringMark())
        #expect(report.outcome == .fresh)
        #expect(report.scenes.map(\.outcome) == [.fresh])
        #expect(report.scenes.map(\.session) == app.openSceneSessions)

        let plain = Application(buildVersion: "1", delegate: nil)
        let session = RestorationSession(application: plain)
        #expect(session.launch(candidates: [], restoringMark: MemoryRestoringMark()).scenes.isEmpty)
    }

    @Test("closing a window through the session asks the host to preserve, and the next archive lacks it")
    func closeSceneAsksToPreserve() throws {
        let (_, sessions, app) = try twoWindowsPreserved()
        #expect(app.session.closeScene(session: sessions[0]) == [.preserveState])
        #expect(app.session.closeScene(session: "no-such-session") == nil)
        let archive = try ArchiveCodec.decode(try app.preserve().bytes).archive
        #expect(archive.sceneSessions.map(\.identifier) == [sessions[1]])
    }
}
