import FoundationEssentials
import Glibc
import RelaunchctlCore
import ScenarioKit
import Testing

/// Root never follows a link into an app's folder (issue 20): the app's user owns the folder and can
/// put a link there for root to write through.
@Suite("App state folder as root")
struct AppStateFolderTests {
    @Test("corrupt-archive refuses a symbolic link in the archive's place; the target is untouched")
    func symlinkedArchive() throws {
        let temporary = try Temporary()
        let canary = temporary.path + "/canary"
        try temporary.write("canary", Array("root's file, not an archive".utf8))
        try temporary.makeFolder("app")
        #expect(symlink(canary, temporary.path + "/app/restoration.archive") == 0)

        let error = #expect(throws: CLIError.self) { try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app") }
        #expect(error?.message.contains("is a symbolic link") == true, "\(error?.message ?? "")")
        #expect(try temporary.read("canary") == Array("root's file, not an archive".utf8))
    }

    @Test("corrupt-archive refuses a symbolic link among the folder's components")
    func symlinkedFolder() throws {
        let temporary = try Temporary()
        try temporary.makeFolder("elsewhere")
        try temporary.write("elsewhere/restoration.archive", [UInt8](repeating: 7, count: 64))
        #expect(symlink(temporary.path + "/elsewhere", temporary.path + "/app") == 0)

        let error = #expect(throws: CLIError.self) { try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app") }
        #expect(error?.message == "\(temporary.path)/app is a symbolic link; as root the runner does not follow links into an app's folder")
        #expect(try temporary.read("elsewhere/restoration.archive") == [UInt8](repeating: 7, count: 64))
    }

    @Test("corrupt-archive refuses a hard-linked archive")
    func hardLinkedArchive() throws {
        let temporary = try Temporary()
        try temporary.write("other", [UInt8](repeating: 7, count: 64))
        try temporary.makeFolder("app")
        #expect(link(temporary.path + "/other", temporary.path + "/app/restoration.archive") == 0)
        let error = #expect(throws: CLIError.self) { try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app") }
        #expect(error?.message.contains("2 hard links") == true)
        #expect(try temporary.read("other") == [UInt8](repeating: 7, count: 64))
    }

    @Test("corrupt-archive flips the middle byte of a real archive")
    func regularArchive() throws {
        let temporary = try Temporary()
        try temporary.makeFolder("app")
        try temporary.write("app/restoration.archive", [UInt8](repeating: 0, count: 64))
        try ScenarioRunner.corruptArchive(inFolder: temporary.path + "/app")
        var expected = [UInt8](repeating: 0, count: 64)
        expected[32] = 0x5a
        #expect(try temporary.read("app/restoration.archive") == expected)
    }

    @Test("deleting in the folder deletes a link itself, never its target")
    func removeLink() throws {
        let temporary = try Temporary()
        try temporary.write("canary", [1, 2, 3])
        try temporary.makeFolder("app")
        #expect(symlink(temporary.path + "/canary", temporary.path + "/app/app.data") == 0)
        let folder = try AppStateFolder(temporary.path + "/app")
        try folder.remove("app.data")
        try folder.remove("missing")
        var info = stat()
        #expect(lstat(temporary.path + "/app/app.data", &info) == -1 && errno == ENOENT)
        #expect(try temporary.read("canary") == [1, 2, 3])
    }

    @Test("deleting a file in the folder deletes it, whatever errno held before")
    func removeFile() throws {
        let temporary = try Temporary()
        try temporary.makeFolder("app")
        try temporary.write("app/app.data", [1])
        let folder = try AppStateFolder(temporary.path + "/app")
        // errno is whatever the last failed call left; a deletion that worked must not look at it.
        errno = EPERM
        try folder.remove("app.data")
        #expect(!temporary.exists("app/app.data"))
    }

    @Test("a folder that is missing, or has a plain file among its components, is refused naming the component and why")
    func unopenableFolder() throws {
        let temporary = try Temporary()
        try temporary.write("file", [1])
        let missing = #expect(throws: CLIError.self) { _ = try AppStateFolder(temporary.path + "/missing/app") }
        #expect(missing?.message == "cannot open \(temporary.path)/missing: No such file or directory")
        let file = #expect(throws: CLIError.self) { _ = try AppStateFolder(temporary.path + "/file/app") }
        #expect(file?.message == "cannot open \(temporary.path)/file: Not a directory")
    }
}

/// A temporary folder, removed with all it holds when the value goes away.
final class Temporary {
    let path: String

    init() throws {
        var template = Array("/tmp/scenariokit-test-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw Failure("mkdtemp: errno \(errno)") }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        // Links are removed themselves, never followed.
        try? FileManager.default.removeItem(atPath: path)
    }

    func makeFolder(_ name: String) throws {
        guard mkdir(path + "/" + name, 0o700) == 0 else { throw Failure("mkdir \(name): errno \(errno)") }
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        guard let file = fopen(path + "/" + name, "w") else { throw Failure("cannot write \(name)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw Failure("short write to \(name)") }
    }

    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(path + "/" + name, &info) == 0
    }

    func read(_ name: String) throws -> [UInt8] {
        guard let file = fopen(path + "/" + name, "r") else { throw Failure("cannot read \(name)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes += buffer[..<count]
            if count < buffer.count { return bytes }
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
