import Foundation
import InMemoryLogging
import Logging
import RelaunchApp
import RelaunchBus
import RelaunchContract
@testable import RelaunchHost
import RestorationKit
import Systemd
import RelaunchTestSupport
import Testing

/// What a launch through the host reports: in the journal, and on READY=1's status line.
@Suite("A hosted app's launch, as it reports it")
struct HostLaunchTests {
    /// A sealed memfd holding `bytes`, as systemd passes the fd store's copy back (the launch closes it).
    static func passed(_ bytes: [UInt8], name: String = SavedState.fileDescriptorName) throws -> ListenedFileDescriptor {
        ListenedFileDescriptor(fd: try SealedMemoryFile.create(name: name, bytes: bytes), name: name)
    }

    @Test("a copy that cannot be restored is logged with its source, size and error; READY says the launch discarded, and why")
    func unrestorableCopy() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            try ArchiveFile(directory: directory, fileName: SavedState.fileName).write(Array("not an archive".utf8))
            let memory = InMemoryLogHandler()
            let (_, report) = launchSceneTestApp(in: directory, logger: memoryLogger(memory))
            let logged = entries(containing: "cannot be restored", in: memory)
            #expect(logged.map(\.message.description) == ["saved state from file cannot be restored"])
            #expect(logged.first?.metadata["ARCHIVE_SOURCE"] == "file")
            #expect(logged.first?.metadata["ARCHIVE_BYTES"] == "14")
            #expect(logged.first?.metadata["ERROR"].map { "\($0)".contains("discarded as 'corrupt'") } == true)
            #expect(journalEvents(.restorationFinished, in: memory).isEmpty)
            #expect(RelaunchHost.readyStatusSuffix(report) == "discarded corrupt")
        }
    }

    @Test("a restore logs `restoration finished` once, with its source; a copy that restores is not logged as unrestorable")
    func restoredLaunch() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let (bytes, _, _) = try twoWindowsPreserved()
            try ArchiveFile(directory: directory, fileName: SavedState.fileName).write(bytes)
            let memory = InMemoryLogHandler()
            let (app, report) = launchSceneTestApp(in: directory, logger: memoryLogger(memory))
            #expect(app.openSceneSessions.count == 2)
            #expect(entries(containing: "cannot be restored", in: memory).isEmpty)
            let finished = journalEvents(.restorationFinished, in: memory)
            #expect(finished.map { $0["ARCHIVE_SOURCE"] } == ["file"])
            #expect(finished.map { $0["RESTORED_COUNT"] } == ["0"], "a pure-scene restore restores no controller")
            #expect(RelaunchHost.readyStatusSuffix(report) == "restored")
        }
    }

    @Test("a first launch restores nothing and logs no `restoration finished`")
    func freshLaunch() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let (_, report) = launchSceneTestApp(in: directory, logger: memoryLogger(memory))
            #expect(journalEvents(.restorationFinished, in: memory).isEmpty)
            #expect(journalEvents(.appLaunched, in: memory).map { $0["LAUNCH_OUTCOME"] } == ["fresh"])
            #expect(RelaunchHost.readyStatusSuffix(report) == "fresh")
        }
    }

    @Test("the fd store's copy restores; a passed descriptor of another name is ignored and named in the journal")
    func fdStoreCopy() throws {
        let (bytes, _, _) = try twoWindowsPreserved()
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let (_, report) = launchSceneTestApp(in: directory, logger: memoryLogger(memory), passed: [try Self.passed(bytes)])
            #expect(report.outcome == .restored)
            #expect(journalEvents(.restorationFinished, in: memory).map { $0["ARCHIVE_SOURCE"] } == ["fdstore"])
        }
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let (_, report) = launchSceneTestApp(
                in: directory, logger: memoryLogger(memory), passed: [try Self.passed(bytes, name: "listening-socket")])
            #expect(report.outcome == .fresh)
            let ignored = entries(containing: "ignoring a passed descriptor", in: memory)
            #expect(ignored.map { $0.metadata["FDNAME"] } == ["listening-socket"])
        }
    }

    @Test("an fd store copy over the hard limit is refused as too-large, read no further than one byte over it")
    func oversizedFdStoreCopy() throws {
        let hard = ArchiveLimits.default.hard
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let huge = [UInt8](repeating: 0, count: hard + 100)
            let (_, report) = launchSceneTestApp(in: directory, logger: memoryLogger(memory), passed: [try Self.passed(huge)])
            #expect(report.discardReason == .tooLarge)
            #expect(RelaunchHost.readyStatusSuffix(report) == "discarded too-large")
            let logged = entries(containing: "saved state from fdstore cannot be restored", in: memory)
            #expect(logged.map { $0.metadata["ARCHIVE_BYTES"] } == ["\(hard + 1)"])
        }
    }

    @Test("a permissiond without LastKill is an older one (a notice); any other failure to ask is a warning")
    func lastKillUnanswered() throws {
        try TemporaryDirectory.with(prefix: "appdata") { (directory) throws in
            let memory = InMemoryLogHandler()
            let logger = memoryLogger(memory)
            let launcher = AppLauncher<SceneTestApp>(
                configuration: sceneTestConfiguration(directory),
                savedState: SavedState(directory: directory, notifier: ServiceNotifier(), logger: logger),
                permissions: nil, appID: "scene-test", logger: logger)
            let unknown = BusError(name: BusError.unknownMethodName, message: "no LastKill")
            #expect(launcher.lastKill(.failure(unknown)) == nil)
            #expect(launcher.lastKill(.failure(.failed("timed out"))) == nil)
            #expect(launcher.lastKill(nil) == nil)
            let said = memory.entries.map { "\($0.level) \($0.message)" }
            #expect(said == [
                "notice permissiond has no LastKill; the last instance's end is not known",
                "warning could not ask permissiond how the last instance ended",
            ])
        }
    }
}
