import FoundationEssentials
import Glibc
import RelaunchctlCore
import RelaunchTestSupport
import ScenarioKit
import Testing

/// Root never follows a link into an app's folder (issue 20): the app's user owns the folder and can
/// put a link there for root to write through.
@Suite("App state folder as root")
struct AppStateFolderTests {
    @Test("corrupt-archive refuses a symbolic link in the archive's place; the target is untouched")
    func symlinkedArchive() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        let canary = temporary.path + "/canary"
        try temporary.write(Array("root's file, not an archive".utf8), to: "canary")
        try temporary.makeFolder("app", permissions: 0o700)
        #expect(symlink(canary, temporary.path + "/app/restoration.archive") == 0)

        let error = #expect(throws: CLIError.self) { try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app") }
        #expect(error?.message.contains("is a symbolic link") == true, "\(error?.message ?? "")")
        #expect(try temporary.bytes("canary") == Array("root's file, not an archive".utf8))
    }

    @Test("corrupt-archive refuses a symbolic link among the folder's components")
    func symlinkedFolder() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.makeFolder("elsewhere", permissions: 0o700)
        try temporary.write([UInt8](repeating: 7, count: 64), to: "elsewhere/restoration.archive")
        #expect(symlink(temporary.path + "/elsewhere", temporary.path + "/app") == 0)

        let error = #expect(throws: CLIError.self) { try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app") }
        #expect(error?.message == "\(temporary.path)/app is a symbolic link; as root the runner does not follow links into an app's folder")
        #expect(try temporary.bytes("elsewhere/restoration.archive") == [UInt8](repeating: 7, count: 64))
    }

    @Test("corrupt-archive refuses a hard-linked archive")
    func hardLinkedArchive() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.write([UInt8](repeating: 7, count: 64), to: "other")
        try temporary.makeFolder("app", permissions: 0o700)
        #expect(link(temporary.path + "/other", temporary.path + "/app/restoration.archive") == 0)
        let error = #expect(throws: CLIError.self) { try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app") }
        #expect(error?.message.contains("2 hard links") == true)
        #expect(try temporary.bytes("other") == [UInt8](repeating: 7, count: 64))
    }

    @Test("corrupt-archive flips the middle byte of a real archive")
    func regularArchive() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.makeFolder("app", permissions: 0o700)
        try temporary.write([UInt8](repeating: 0, count: 64), to: "app/restoration.archive")
        try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app")
        var expected = [UInt8](repeating: 0, count: 64)
        expected[32] = 0x5a
        #expect(try temporary.bytes("app/restoration.archive") == expected)
    }

    @Test("deleting in the folder deletes a link itself, never its target")
    func removeLink() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.write([1, 2, 3], to: "canary")
        try temporary.makeFolder("app", permissions: 0o700)
        #expect(symlink(temporary.path + "/canary", temporary.path + "/app/app.data") == 0)
        let folder = try AppStateFolder(temporary.path + "/app")
        try folder.remove("app.data")
        try folder.remove("missing")
        var info = stat()
        #expect(lstat(temporary.path + "/app/app.data", &info) == -1 && errno == ENOENT)
        #expect(try temporary.bytes("canary") == [1, 2, 3])
    }

    @Test("deleting a file in the folder deletes it, whatever errno held before")
    func removeFile() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.makeFolder("app", permissions: 0o700)
        try temporary.write([1], to: "app/app.data")
        let folder = try AppStateFolder(temporary.path + "/app")
        // errno is whatever the last failed call left; a deletion that worked must not look at it.
        errno = EPERM
        try folder.remove("app.data")
        #expect(!temporary.exists("app/app.data"))
    }

    @Test("a folder that is missing, or has a plain file among its components, is refused naming the component and why")
    func unopenableFolder() throws {
        let temporary = try TemporaryDirectory(prefix: "scenariokit-test")
        try temporary.write([1], to: "file")
        let missing = #expect(throws: CLIError.self) { _ = try AppStateFolder(temporary.path + "/missing/app") }
        #expect(missing?.message == "cannot open \(temporary.path)/missing: No such file or directory")
        let file = #expect(throws: CLIError.self) { _ = try AppStateFolder(temporary.path + "/file/app") }
        #expect(file?.message == "cannot open \(temporary.path)/file: Not a directory")
    }
}
