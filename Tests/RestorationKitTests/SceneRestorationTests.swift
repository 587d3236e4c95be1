import RestorationKit
import Testing

/// Scene-based restoration: the order of calls, closing a window, and old archives.
@Suite("Scene restoration")
struct SceneRestorationTests {
    @Test("backgrounding asks each scene for its activity; a relaunch restores both in UIKit's order")
    func order() throws {
        let (application, log) = sceneApp(windows: ["A", "B"])
        application.enterBackground()
        #expect(log.entries == [
            "A willResignActive", "A didEnterBackground", "A stateRestorationActivity",
            "B willResignActive", "B didEnterBackground", "B stateRestorationActivity",
        ])
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.sceneSessions.map(\.activity?.title) == ["note A", "note B"])

        let (after, relaunchLog) = relaunchedSceneApp(names: log.names)
        _ = try restored(after.launch(restoringFrom: try throughBytes(archive)))
        #expect(relaunchLog.entries == [
            "willFinishLaunching", "shouldRestore", "didFinishLaunching",
            "A configurationForConnecting", "A willConnect activity=note A",
            "A restoreInteractionState note=text of A", "A willEnterForeground", "A didBecomeActive",
            "B configurationForConnecting", "B willConnect activity=note B",
            "B restoreInteractionState note=text of B", "B willEnterForeground", "B didBecomeActive",
        ])
        #expect(after.openSessions.map(\.persistentIdentifier) == application.openSessions.map(\.persistentIdentifier))
        #expect(after.openSessions.map { noteDelegate(of: $0)?.note } == ["text of A", "text of B"])
        let activity = try #require(after.openSessions.last?.stateRestorationActivity)
        #expect(activity == UserActivity(
            activityType: "org.relaunch.notes.editing", title: "note B",
            userInfo: ["note": .string("text of B"), "cursor": .int(9)], targetContentIdentifier: "note-B"))
        #expect(after.connectedScenes.allSatisfy { $0.activationState == .foregroundActive && !$0.isRestoringState })
    }

    @Test("closing a window discards its session and saved state; the other window is unaffected")
    func closeWindow() throws {
        let (application, log) = sceneApp(windows: ["A", "B"])
        application.enterBackground()
        let before = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(before.sceneSessions.count == 2)
        application.enterForeground()
        let closed = application.openSessions[1]
        log.entries.removeAll()

        application.requestSceneSessionDestruction(closed)
        #expect(log.entries == [
            "B willResignActive", "B didEnterBackground", "B didDisconnect", "didDiscardSceneSessions [\"B\"]",
        ])
        #expect(closed.stateRestorationActivity == nil && closed.scene == nil)
        #expect(application.openSessions.map { log.name(of: $0) } == ["A"])
        #expect(application.connectedScenes.map { log.name(of: $0.session) } == ["A"])

        application.enterBackground()
        let after = try #require(try application.preserve(generation: 2, timestamp: 0))
        #expect(after.sceneSessions.map(\.identifier) == [application.openSessions[0].persistentIdentifier])
        let (relaunched, relaunchLog) = relaunchedSceneApp(names: log.names)
        _ = try restored(relaunched.launch(restoringFrom: try throughBytes(after)))
        #expect(relaunched.openSessions.map { relaunchLog.name(of: $0) } == ["A"])
        #expect(noteDelegate(of: relaunched.openSessions.first)?.note == "text of A")
        #expect(!relaunchLog.entries.contains { $0.hasPrefix("B ") })
    }

    @Test("a window opened for an activity gets it in its connection options, not as restoration")
    func openForActivity() throws {
        let (application, log) = sceneApp(windows: ["A"])
        let scene = application.requestSceneSessionActivation(userActivity: UserActivity(activityType: "open"))
        log.names[scene.session.persistentIdentifier] = "N"
        #expect(scene.session.stateRestorationActivity == nil)
        #expect(scene.activationState == .foregroundActive)
        #expect(application.openSessions.count == 2)
    }

    @Test("an archive without scenes is written in format 3 and restores as before, with no scene calls")
    func oldArchive() throws {
        let archive = sampleArchive()
        let bytes = try ArchiveCodec.encode(archive)
        #expect(bytes[4] == 3 && bytes[5] == 0)
        let decoded = try ArchiveCodec.decode(bytes).archive
        #expect(decoded == archive && decoded.sceneSessions.isEmpty)
        let formatTwo = try ArchiveCodec.decode(try ArchiveCodec.encode(archive, formatVersion: 2)).archive
        #expect(formatTwo.controllers == archive.controllers && formatTwo.sceneSessions.isEmpty)

        // An app without scenes: the view-controller path alone, exactly as before.
        let delegate = TestDelegate()
        let before = Application(buildVersion: "1", delegate: delegate)
        before.window.rootViewController = RestorableNote(restorable: "Root", note: "saved")
        let saved = try #require(try before.preserve(generation: 1, timestamp: 0))
        #expect(saved.sceneSessions.isEmpty)
        #expect(try ArchiveCodec.encode(saved)[4] == 3)
        let afterDelegate = TestDelegate()
        var registry = RestorationRegistry()
        registry.register(RestorableNote.self)
        let after = Application(buildVersion: "1", delegate: afterDelegate, registry: registry)
        let report = try restored(after.launch(restoringFrom: try throughBytes(saved)))
        #expect(report.restored.map(\.path) == [["Root"]])
        #expect((after.window.rootViewController as? NoteController)?.note == "saved")
        #expect(after.openSessions.isEmpty && after.connectedScenes.isEmpty)

        // A scene-based app given an archive of a build before scenes: one fresh window.
        let (sceneBased, log) = relaunchedSceneApp(names: [:])
        _ = try restored(sceneBased.launch(restoringFrom: try throughBytes(saved)))
        #expect(sceneBased.openSessions.count == 1)
        #expect(sceneBased.openSessions[0].stateRestorationActivity == nil)
        #expect(log.entries.filter { $0.contains("restoreInteractionState") }.isEmpty)
    }
}
