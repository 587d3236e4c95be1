import Foundation
import InMemoryLogging
import Logging
import RelaunchApp
import RelaunchContract
@testable import RelaunchHost
import RestorationKit
import Systemd

/// A scene test app's configuration on `directory`: no systemd, no bus.
func sceneTestConfiguration(_ directory: String, testHooks: Bool = false, invocationID: String? = nil) -> HostConfiguration {
    HostConfiguration(
        identity: AppIdentity(program: "scene-test", summary: "A scene test app.", build: "1", buildVariable: "SCENE_TEST_BUILD",
                              defaultAppID: "scene-test", defaultBusName: "org.relaunch.SceneTest1"),
        buildNumber: "1", stateDirectory: directory, invocationID: invocationID, testHooksEnabled: testHooks,
        appID: "scene-test", busName: "org.relaunch.SceneTest1")
}

/// A logger whose entries `memory` keeps.
func memoryLogger(_ memory: InMemoryLogHandler) -> Logger {
    Logger(label: "test") { _ in memory }
}

/// Launches a `SceneTestApp` through the host's launcher on `directory`'s saved state (and the
/// descriptors `passed`, as if systemd passed them), without permissiond.
func launchSceneTestApp(
    in directory: String, logger: Logger, passed: [ListenedFileDescriptor] = []
) -> (app: SceneTestApp, report: LaunchReport) {
    let savedState = SavedState(directory: directory, notifier: ServiceNotifier(), logger: logger) { passed }
    let launcher = AppLauncher<SceneTestApp>(
        configuration: sceneTestConfiguration(directory), savedState: savedState, permissions: nil, appID: "scene-test",
        logger: logger)
    let (app, _, report) = launcher.launch { _, _ in SceneTestApp() }
    return (app, report)
}

/// The host around a freshly launched `SceneTestApp` on `directory`.
func sceneTestHost(
    in directory: String, logger: Logger, permissions: [Permission: PermissionState] = [:], testHooks: Bool = false
) -> AppHost<SceneTestApp> {
    let (app, _) = launchSceneTestApp(in: directory, logger: logger)
    return AppHost(
        app: app, permissions: permissions, configuration: sceneTestConfiguration(directory, testHooks: testHooks),
        savedState: SavedState(directory: directory, notifier: ServiceNotifier(), logger: logger),
        notifier: ServiceNotifier(), logger: logger)
}

/// The entries `memory` holds with `id`, as their metadata (strings).
func journalEvents(_ id: MessageID, in memory: InMemoryLogHandler) -> [[String: String]] {
    memory.entries.compactMap { entry in
        guard entry.metadata[JournalLogHandler.messageIDKey] == .string(id.rawValue) else { return nil }
        return entry.metadata.mapValues { "\($0)" }
    }
}

/// The entries `memory` holds whose message contains `text`.
func entries(containing text: String, in memory: InMemoryLogHandler) -> [InMemoryLogHandler.Entry] {
    memory.entries.filter { $0.message.description.contains(text) }
}
