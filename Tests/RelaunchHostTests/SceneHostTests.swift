import Foundation
import InMemoryLogging
import Logging
import RelaunchApp
import RelaunchContract
@testable import RelaunchHost
import RestorationKit
import Systemd
import RelaunchTestSupport
import Testing

/// The host around a scene-based app: its launch journals one entry per scene session, and closing a
/// window rewrites the saved state at once.
@Suite("The host of a scene-based app")
struct SceneHostTests {
    @Test("a relaunch journals one entry per scene session before `app launched`: restored, or discarded with its own REASON")
    func perSceneEntries() throws {
        try TemporaryDirectory.with(prefix: "appdata") { directory in
            let (bytes, sessions, _) = try twoWindowsPreserved()
            try ArchiveFile(directory: directory, fileName: SavedState.fileName).write(try damagingRecord(containing: "second note", in: bytes))
            let memory = InMemoryLogHandler()
            let (_, report) = launchSceneTestApp(in: directory, logger: memoryLogger(memory))
            #expect(report.outcome == .restored)

            let scenes = journalEvents(.sceneSessionRestored, in: memory)
            #expect(scenes.map { $0["SCENE_SESSION"] } == sessions)
            #expect(scenes.map { $0["SCENE_OUTCOME"] } == ["restored", "discarded"])
            #expect(scenes.map { $0["REASON"] } == ["", "corrupt"])
            #expect(scenes.map { $0["ACTIVITY_TYPE"] } == [SceneTestApp.activityType, ""])
            // The title is what the user typed: it stays out of the journal.
            #expect(scenes.allSatisfy { $0["ACTIVITY_TITLE"] == nil })
            #expect(scenes.allSatisfy { $0["SCENE_ROLE"] == SceneSession.Role.windowApplication.rawValue })
            #expect(journalEvents(.appLaunched, in: memory).map { $0["LAUNCH_OUTCOME"] } == ["restored"])
            let order = memory.entries.compactMap { $0.metadata[JournalLogHandler.messageIDKey].map { "\($0)" } }
            #expect(order.lastIndex(of: MessageID.sceneSessionRestored.rawValue)! < order.firstIndex(of: MessageID.appLaunched.rawValue)!)
        }
    }

    @Test("closing a window preserves at once: the file on disk drops the closed session though no background follows")
    func preserveAfterClose() throws {
        try TemporaryDirectory.with(prefix: "appdata") { directory in
            let memory = InMemoryLogHandler()
            let host = sceneTestHost(in: directory, logger: memoryLogger(memory))
            try host.input { app throws(SceneTestApp.InputError) in try app.tap("open") }
            var sessions: [String] = []
            try host.input { app in
                sessions = app.openSceneSessions
                return []
            }
            #expect(sessions.count == 2)
            try host.input { app in app.background() }
            try host.input { app in app.foreground() }
            let file = ArchiveFile(directory: directory, fileName: SavedState.fileName)
            let saved = { () throws -> [String] in
                let bytes = try #require(try file.read(), "no archive on disk")
                return try ArchiveCodec.decode(bytes).archive.sceneSessions.map(\.identifier)
            }
            #expect(try saved() == sessions)

            // The app's close does not ask to preserve: the host notices the session went.
            try host.input { app throws(SceneTestApp.InputError) in try app.tap("close:" + sessions[0]) }
            #expect(host.stateJSON().contains(#""lifecycle":"active""#), "no background came between")
            #expect(try saved() == [sessions[1]], "the closed window's saved state is still on disk")
            #expect(memory.entries.contains { $0.message.description.contains("scene session closed: \(sessions[0])") })

            // Input that closes nothing preserves nothing.
            let preserved = journalEvents(.statePreserved, in: memory).count
            try host.input { app throws(SceneTestApp.InputError) in try app.type(sessions[1], "more") }
            #expect(journalEvents(.statePreserved, in: memory).count == preserved)
        }
    }
}
