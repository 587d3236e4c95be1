import Glibc
import RelaunchctlCore
import RelaunchTestSupport
import ScenarioKit
import Testing

/// The files the runner handles as root before and during a scenario: the app's state folder, its
/// saved state, and systemd drop-ins.
@Suite("Runner files")
struct RunnerFilesTests {
    @Test("the state folder is the unit's first StateDirectory=, under /var/lib/private with DynamicUser=")
    func stateDirectory() throws {
        #expect(try ScenarioRunner.stateDirectory(of: "a.service", directories: "checkin-demo cache", dynamicUser: "yes")
            == "/var/lib/private/checkin-demo")
        #expect(try ScenarioRunner.stateDirectory(of: "a.service", directories: "checkin-demo", dynamicUser: "no") == "/var/lib/checkin-demo")
        let error = #expect(throws: CLIError.self) {
            try ScenarioRunner.stateDirectory(of: "a.service", directories: "", dynamicUser: "yes")
        }
        #expect(error?.message == "a.service has no StateDirectory=, so it keeps no archive the runner can find")
    }

    @Test("preparing deletes the saved archive and data model, a link itself, and leaves the rest")
    func removeSavedState() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.makeFolder("app", permissions: 0o700)
        try temporary.write([1, 2, 3], to: "canary")
        for name in ["restoration.archive", "app.data", "settings"] { try temporary.write([7], to: "app/" + name) }
        #expect(symlink(temporary.path + "/canary", temporary.path + "/app/app.data.unreadable") == 0)
        try ScenarioRunner.removeSavedState(inFolder: temporary.path + "/app")
        #expect(["restoration.archive", "app.data", "app.data.unreadable"].allSatisfy { !temporary.exists("app/" + $0) })
        #expect(temporary.exists("app/settings"))
        #expect(try temporary.bytes("canary") == [1, 2, 3])
    }

    @Test("an app that never ran has no state folder, and nothing to delete")
    func noStateFolder() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try ScenarioRunner.removeSavedState(inFolder: temporary.path + "/app")
        try ScenarioRunner.removeSavedState(inFolder: temporary.path + "/missing/app")
        #expect(!temporary.exists("app"))
    }

    @Test("a state folder that is a link is refused, and what it points to is kept")
    func linkedStateFolder() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.makeFolder("elsewhere", permissions: 0o700)
        try temporary.write([9], to: "elsewhere/app.data")
        #expect(symlink(temporary.path + "/elsewhere", temporary.path + "/app") == 0)
        let error = #expect(throws: CLIError.self) { try ScenarioRunner.removeSavedState(inFolder: temporary.path + "/app") }
        #expect(error?.message.contains("is a symbolic link") == true)
        #expect(temporary.exists("elsewhere/app.data"))
    }

    @Test("corrupt-archive refuses while the app runs")
    func corruptRunningApp() throws {
        try ScenarioRunner.checkStopped(mainPID: "0")
        let error = #expect(throws: CLIError.self) { try ScenarioRunner.checkStopped(mainPID: "4242") }
        #expect(error?.code == .usage)
        #expect(error?.message == "corrupt-archive needs the app stopped (stop-app first)")
    }

    @Test("a drop-in is written with the folders it needs, and written again over the last one")
    func dropIn() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        let path = temporary.path + "/system/app.service.d/50-x.conf"
        try writeDropIn(path, "[Service]\nEnvironment=A=1\n")
        try writeDropIn(path, "[Service]\nEnvironment=A=2\n")
        #expect(try temporary.bytes("system/app.service.d/50-x.conf") == Array("[Service]\nEnvironment=A=2\n".utf8))
    }

    @Test("a drop-in whose folder cannot be made names that folder and why")
    func dropInFolderRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.write([1], to: "system")
        let error = #expect(throws: CLIError.self) { try writeDropIn(temporary.path + "/system/app.service.d/50-x.conf", "x") }
        #expect(error?.message == "cannot create \(temporary.path)/system/app.service.d: Not a directory")
    }
}
