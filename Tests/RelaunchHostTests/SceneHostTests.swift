import Foundation
import InMemoryLogging
import Logging
import RelaunchApp
import RelaunchContract
@testable import RelaunchHost
import RestorationKit
import Systemd
import Testing

/// The host around a scene-based app: its launch journals one entry per scene session, and closing a
/// window rewrites the saved state at once.
@Suite("The host of a scene-based app")
struct SceneHostTests {
    private static func configuration(_ directory: String) -> HostConfiguration {
        HostConfiguration(
            identity: AppIdentity(program: "scene-test", summary: "A scene test app.", build: "1", buildVariable: "SCENE_TEST_BUILD",
                                  defaultAppID: "scene-test", defaultBusName: "org.relaunch.SceneTest1"),
            buildNumber: "1", stateDirectory: directory, invocationID: nil, testHooksEnabled: false,
            appID: "scene-test", busName: "org.relaunch.SceneTest1")
    }

    /// Launches a `SceneTestApp` through the host's launcher on `directory`'s saved state.
    private static func launch(in directory: String, logger: Logger) -> (app: SceneTestApp, report: LaunchReport) {
        let savedState = SavedState(directory: directory, notifier: ServiceNotifier(), logger: logger)
        let launcher = AppLauncher<SceneTestApp>(
            configuration: configuration(directory), savedState: savedState, permissions: nil, appID: "scene-test", logger: logger)
        let (app, _, report) = launcher.launch { _, _ in SceneTestApp() }
        return (app, report)
    }

    /// The entries `memory` holds with `id`, as their metadata (strings).
    private static func events(_ id: MessageID, in memory: InMemoryLogHandler) -> [[String: String]] {
        memory.entries.compactMap { entry in
            guard entry.metadata[JournalLogHandler.messageIDKey] == .string(id.rawValue) else { return nil }
            return entry.metadata.mapValues { "\($0)" }
        }
    }

    @Test("a relaunch journals one entry per scene session before `app launched`: restored, or discarded with its own REASON")
    func perSceneEntries() throws {
        try AppDataTests.inTemporaryDirectory { directory in
            let (bytes, sessions, _) = try twoWindowsPreserved()
            try ArchiveFile(directory: directory, fileName: SavedState.fileName).write(try damagingRecord(containing: "second note", in: bytes))
            let memory = InMemoryLogHandler()
            let (_, report) = Self.launch(in: directory, logger: Logger(label: "test") { _ in memory })
            #expect(report.outcome == .restored)

            let scenes = Self.events(.sceneSessionRestored, in: memory)
            #expect(scenes.map { $0["SCENE_SESSION"] } == sessions)
            #expect(scenes.map { $0["SCENE_OUTCOME"] } == ["restored", "discarded"])
            #expect(scenes.map { $0["REASON"] } == ["", "corrupt"])
            #expect(scenes.map { $0["ACTIVITY_TYPE"] } == [SceneTestApp.activityType, ""])
            #expect(scenes.map { $0["ACTIVITY_TITLE"] } == ["note first no", ""])
            #expect(scenes.allSatisfy { $0["SCENE_ROLE"] == SceneSession.Role.windowApplication.rawValue })
            #expect(Self.events(.appLaunched, in: memory).map { $0["LAUNCH_OUTCOME"] } == ["restored"])
            let order = memory.entries.compactMap { $0.metadata[JournalLogHandler.messageIDKey].map { "\($0)" } }
            #expect(order.lastIndex(of: MessageID.sceneSessionRestored.rawValue)! < order.firstIndex(of: MessageID.appLaunched.rawValue)!)
        }
    }

    @Test("closing a window preserves at once: the file on disk drops the closed session though no background follows")
    func preserveAfterClose() throws {
        try AppDataTests.inTemporaryDirectory { directory in
            let memory = InMemoryLogHandler()
            let logger = Logger(label: "test") { _ in memory }
            let (app, _) = Self.launch(in: directory, logger: logger)
            let host = AppHost(
                app: app, permissions: [:], configuration: Self.configuration(directory),
                savedState: SavedState(directory: directory, notifier: ServiceNotifier(), logger: logger),
                notifier: ServiceNotifier(), logger: logger)
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
            let preserved = Self.events(.statePreserved, in: memory).count
            try host.input { app throws(SceneTestApp.InputError) in try app.type(sessions[1], "more") }
            #expect(Self.events(.statePreserved, in: memory).count == preserved)
        }
    }
}
