import Foundation
import RelaunchContract
import RelaunchTestSupport
import Systemd
import Testing

/// Faults of the disks the app leans on, each with what the user must still see: the app's state
/// directory read-only or full (the fd store's copy restores), the fd store full (the file restores).
/// Every drop-in and mount a check makes is undone by a `defer`, also when it fails. (The clock
/// stepped during a toggle is not injected: the sandbox has no clock of its own, see docs/DESIGN.md
/// "Faults the suite injects".) (Formerly tests/sandbox/checks/faults-storage.sh.)
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct StorageFaultChecks {
    private let unit = Demo.unit
    private let folder = Demo.stateDirectory

    /// The app force-quit (no saved state), then started again under the drop-in NAME holding TEXT;
    /// the returned undo removes it and restarts the app without it.
    private func freshApp(withDropIn name: String, _ text: String) throws -> () -> Void {
        try Demo.restartFresh()
        let undo = { [unit] in
            Cleanup.undo("the drop-in \(name)") { try Units.removeDropIn(unit, name) }
            Cleanup.undo("the app's restart without \(name)") { try Demo.restart() }
        }
        do {
            try Units.addDropIn(unit, name, text)
            try Demo.restart()
        } catch {
            undo()
            throw error
        }
        return undo
    }

    /// The file cannot be written (ERROR, strerror's words): with the modal holding NOTE, background
    /// and SIGKILL; the modal comes back from the fd store's copy, the killed instance said the file
    /// failed and why, and no archive file was left.
    private func expectFdStoreRestore(_ note: String, error: String) throws {
        let instances = try Demo.backgroundThenKill(note, copies: "fdstore")
        try Demo.waitForWarning(instances.old, "could not keep the saved state file")
        let failures = try Journal.entries(["_SYSTEMD_INVOCATION_ID": instances.old, "ARCHIVE_COPY": "file"])
        try Assert.contains(failures.map { $0["ERROR"] ?? "null" }.joined(separator: "\n"), error, "ERROR of the file's failure")
        guard !FileManager.default.fileExists(atPath: Demo.archive) else {
            throw CheckFailure("\(Demo.archive) exists although it could not be written (\(error))")
        }
        try Demo.expectRestored(from: "fdstore", invocation: instances.new)
    }

    @Test func readOnlyStateDirectoryRestoresFromTheFdStore() throws {
        let note = "read-only disk \(getpid())"
        let undo = try freshApp(withDropIn: "90-relaunch-check-read-only.conf", "[Service]\nReadOnlyPaths=\(folder)\n")
        defer { undo() }
        try Assert.contains(try Units.property(unit, "ReadOnlyPaths"), folder, "ReadOnlyPaths of the app")
        try Demo.openModal(note)
        try expectFdStoreRestore(note, error: "Read-only file system")
    }

    /// A 1 MiB tmpfs as the state directory, mounted in the manager's namespace while the app is
    /// stopped, so every instance's namespace sees it; the `defer` brings back the directory below it.
    @Test func fullStateDirectoryRestoresFromTheFdStore() throws {
        let note = "disk full \(getpid())"
        try Demo.restartFresh()
        defer {
            Cleanup.undo("stopping the app") { try Command.expect(0, ["systemctl", "stop", unit]) }
            _ = try? Command.run(["umount", folder])
            Cleanup.undo("the app's restart on its own directory") { try Demo.restart() }
        }
        try Command.expect(0, ["systemctl", "stop", unit])
        try Command.expect(0, ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "relaunch-check-full", folder])
        try Command.expect(0, ["systemctl", "start", unit])
        try Demo.waitReady()
        try Demo.openModal(note)
        // Fill it (root has no reserve on tmpfs), and see a write fail.
        try fill(folder)
        try Assert.equal("0", try freeKiB(folder), "free space in \(folder)")
        let probe = try Command.expect(1, ["sh", "-c", "head -c 4096 /dev/zero >\(folder)/.relaunch-check-probe"])
        try Assert.contains(probe.output, "No space left on device", "a write to the full state directory")
        try expectFdStoreRestore(note, error: "No space left on device")
        // Space back: the next preservation writes both copies again.
        for name in [".relaunch-check-filler", ".relaunch-check-probe"] { try? FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        let invocation = try Demo.invocation()
        try Demo.call("Background")
        try Demo.waitForEntry(invocation, MessageID.statePreserved.rawValue, "'state preserved' with ARCHIVE_COPIES=file,fdstore once space came back",
                                  field: "ARCHIVE_COPIES") { $0["ARCHIVE_COPIES"] == "file,fdstore" }
        let size = ((try? FileManager.default.attributesOfItem(atPath: Demo.archive))?[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0 else { throw CheckFailure("no \(Demo.archive) once space came back") }
    }

    /// FileDescriptorStoreMax=0: the store is full before anything is in it. (Only the app's main
    /// process may store fds in its unit, NotifyAccess=main, so nothing else can take the one slot of a
    /// store of 1.) systemd refuses the copy and says so; the app restores from its file and says that.
    @Test func fullFdStoreRestoresFromTheFile() throws {
        let note = "fd store full \(getpid())"
        let mark = try Journal.mark()
        let undo = try freshApp(withDropIn: "90-relaunch-check-fd-store.conf", "[Service]\nFileDescriptorStoreMax=0\n")
        defer { undo() }
        try Assert.equal("0", try Units.property(unit, "FileDescriptorStoreMax"), "FileDescriptorStoreMax of the app")
        try Demo.openModal(note)
        let instances = try Demo.backgroundThenKill(note, copies: "file,fdstore")
        try Assert.equal("0", try Units.property(unit, "NFileDescriptorStore"), "fds in the unit's fd store")
        try FaultJournal.waitFor("systemd's entry for the app naming FileDescriptorStoreMax", ["UNIT": unit, "_PID": "1"], after: mark,
                                 field: "MESSAGE") { $0.message?.contains("FileDescriptorStoreMax") == true }
        try Demo.expectRestored(from: "file", invocation: instances.new)
    }
}
