import InMemoryLogging
import Logging
import RelaunchApp
import RelaunchContract
@testable import RelaunchHost
import RelaunchTestSupport
import Testing

/// The host between launch and exit: permission updates, SIGTERM and quits.
@Suite("The host of a running app")
struct AppHostTests {
    @Test("a permission update is logged with its journal fields only when it changes what the app was told")
    func permissionUpdateLogsOnlyChanges() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let host = sceneTestHost(in: directory, logger: memoryLogger(memory), permissions: [.camera: .denied])
            let updates = { entries(containing: "permission is now", in: memory) }

            host.updatePermission(.camera, to: .denied, because: "permissiond is back")
            #expect(updates().isEmpty, "denied was already what the app had")
            host.updatePermission(.camera, to: .allowed, because: "permissiond said it changed")
            host.updatePermission(.camera, to: .allowed, because: "permissiond said it changed")
            #expect(updates().count == 1)
            let entry = try #require(updates().first)
            #expect(entry.level == .notice)
            #expect(entry.message.description == "camera permission is now allowed (was denied): permissiond said it changed")
            #expect(entry.metadata["PERMISSION"] == "camera")
            #expect(entry.metadata["OLD_STATE"] == "denied")
            #expect(entry.metadata["NEW_STATE"] == "allowed")

            // A permission the app was never told of counts as not-determined.
            host.updatePermission(.microphone, to: .notDetermined, because: "following permissiond from now on")
            #expect(updates().count == 1)
        }
    }

    @Test("SIGTERM in the background preserves the state, and says why it stops")
    func stopInBackgroundPreserves() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let host = sceneTestHost(in: directory, logger: memoryLogger(memory))
            try host.input { app in app.background() }
            let preserved = journalEvents(.statePreserved, in: memory).count
            #expect(preserved == 1, "going to the background preserves")
            host.shutDown(reason: "asked to stop")
            #expect(journalEvents(.statePreserved, in: memory).count == preserved + 1)
            #expect(entries(containing: "stopping: asked to stop", in: memory).count == 1)
        }
    }

    @Test("SIGTERM in the foreground preserves nothing: the last background's state stays the one saved")
    func stopInForegroundKeepsLastSave() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let host = sceneTestHost(in: directory, logger: memoryLogger(memory))
            #expect(host.stateJSON().contains(#""lifecycle":"active""#))
            host.shutDown(reason: "asked to stop")
            #expect(journalEvents(.statePreserved, in: memory).isEmpty)
            #expect(entries(containing: "stopping: asked to stop", in: memory).count == 1)
        }
    }

    @Test("a quit preserves once and asks to exit; the SIGTERM that follows preserves nothing more")
    func quitThenStopPreservesOnce() async throws {
        try await TemporaryDirectory.withAsync(prefix: "appdata") { directory in
            let memory = InMemoryLogHandler()
            let host = sceneTestHost(in: directory, logger: memoryLogger(memory))
            try host.input { app in app.quit() }
            var requests = host.terminationRequests.makeAsyncIterator()
            #expect(await requests.next() != nil, "the quit asked the process to exit")
            host.shutDown(reason: "the user quit")
            #expect(journalEvents(.statePreserved, in: memory).count == 1)
        }
    }

    /// What the app service logged as the reason it stopped, after `end` ended it (its task given).
    static func stopReasons(_ end: @escaping @Sendable (AppHost<SceneTestApp>, Task<Void, Never>) async throws -> Void) async throws -> [String] {
        var reasons: [String] = []
        try await TemporaryDirectory.withAsync(prefix: "appdata") { directory in
            let memory = InMemoryLogHandler()
            let host = sceneTestHost(in: directory, logger: memoryLogger(memory))
            let service = Task { await AppService(host: host).run() }
            try await end(host, service)
            await service.value
            reasons = entries(containing: "stopping: ", in: memory).map(\.message.description)
        }
        return reasons
    }

    @Test("the app service says why the app stops: the user's quit, or a stop from outside")
    func serviceSaysWhyItStops() async throws {
        #expect(try await Self.stopReasons { host, _ in try host.input { app in app.quit() } } == ["stopping: the user quit"])
        #expect(try await Self.stopReasons { _, service in service.cancel() } == ["stopping: asked to stop"])
    }
}
