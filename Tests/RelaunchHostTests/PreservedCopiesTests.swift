import Foundation
import Logging
@testable import RelaunchHost
import Systemd
import RelaunchTestSupport
import Testing

@Suite("What one preservation kept, copy by copy")
struct PreservedCopiesTests {
    @Test("both copies made: preserved, ARCHIVE_COPIES names both, nothing to warn about")
    func both() {
        let copies = PreservedCopies()
        #expect(copies.isPreserved)
        #expect(copies.kept == [.file, .fdStore])
        #expect(copies.journalValue == "file,fdstore")
        #expect(copies.warnings.isEmpty)
        #expect(copies.failure == nil)
    }

    @Test("the file failed (read-only, full, failing disk): the fd store's copy alone still preserves")
    func fileFailed() throws {
        var copies = PreservedCopies()
        copies.failed(.file, because: "could not create …: Read-only file system (errno 30)")
        #expect(copies.isPreserved)
        #expect(copies.kept == [.fdStore])
        #expect(copies.journalValue == "fdstore")
        #expect(copies.failure == nil)
        let warning = try #require(copies.warnings.first)
        #expect(copies.warnings.count == 1)
        #expect(warning.copy == .file)
        #expect(warning.message.contains("the saved state file"))
        #expect(warning.message.contains("the fd store's copy will restore"))
    }

    @Test("the fd store failed: the file alone still preserves")
    func fdStoreFailed() throws {
        var copies = PreservedCopies()
        copies.failed(.fdStore, because: "sd_pid_notify_with_fds failed")
        #expect(copies.isPreserved)
        #expect(copies.journalValue == "file")
        #expect(try #require(copies.warnings.first).copy == .fdStore)
    }

    @Test("neither copy made: an error, no warnings, and no copies to name")
    func neither() {
        var copies = PreservedCopies()
        copies.failed(.file, because: "EROFS")
        copies.failed(.fdStore, because: "no fd store")
        #expect(!copies.isPreserved)
        #expect(copies.journalValue == "")
        #expect(copies.warnings.isEmpty)
        #expect(copies.failure?.contains("either copy") == true)
    }

    @Test("the copies' names are the ones the journal's ARCHIVE_SOURCE has always said")
    func names() {
        #expect(PreservedCopies.Copy.file.rawValue == "file")
        #expect(PreservedCopies.Copy.fdStore.rawValue == "fdstore")
    }

    /// Run without systemd (no NOTIFY_SOCKET), the fd store step reports itself not made, which shows it ran.
    @Test("a state directory that cannot be written does not stop the fd store step",
          .enabled(if: ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] == nil))
    func unwritableDirectory() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)").path
        let saved = SavedState(directory: missing, notifier: ServiceNotifier(), logger: Logger(label: "test"))
        let copies = saved.store(Array("archive".utf8))
        #expect(copies.failures[.file]?.contains("No such file or directory") == true)
        #expect(copies.failures[.fdStore]?.contains("not run by systemd") == true)
        #expect(!copies.isPreserved)
    }

    @Test("a writable state directory gets the file even when the fd store is not there",
          .enabled(if: ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] == nil))
    func writableDirectory() throws {
        try TemporaryDirectory.with(prefix: "appdata") { directory in
            let saved = SavedState(directory: directory, notifier: ServiceNotifier(), logger: Logger(label: "test"))
            let copies = saved.store(Array("archive".utf8))
            #expect(copies.kept == [.file])
            #expect(FileManager.default.contents(atPath: directory + "/" + SavedState.fileName).map(Array.init) == Array("archive".utf8))
        }
    }
}
