internal import RestorationKit
internal import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// The restoring mark, with the `crash-next-restore` test hook: when the flag file exists, setting the
/// mark consumes the flag and aborts, as if restoring crashed. The launch after that finds the mark and
/// discards the saved state (`crashed-during-restore`).
final class CrashingRestoringMark: RestoringMarkStore {
    /// The flag file's name in the state directory.
    static let flagFileName = "crash-next-restore"
    /// The `stall-next-restore` hook's flag: setting the mark consumes it and then waits forever, so a
    /// test can change a permission while this instance restores (permissiond kills it there).
    static let stallFlagFileName = "stall-next-restore"

    private let mark: RestoringMarkFile
    private let flag: ArchiveFile
    private let stallFlag: ArchiveFile

    /// `invocationID` is written into the mark, so the next launch can tell a restore that permissiond
    /// killed (its LastKill names that invocation) from one that crashed.
    init(directory: String, invocationID: String?) {
        mark = RestoringMarkFile(directory: directory, note: invocationID ?? "restoring")
        flag = ArchiveFile(directory: directory, fileName: Self.flagFileName)
        stallFlag = ArchiveFile(directory: directory, fileName: Self.stallFlagFileName)
    }

    /// Arms the hook for the next launch that restores.
    static func arm(directory: String, stall: Bool) throws(StorageError) {
        try ArchiveFile(directory: directory, fileName: stall ? stallFlagFileName : flagFileName)
            .write(Array((stall ? "stall\n" : "crash\n").utf8))
    }

    func isSet() throws -> Bool { try mark.isSet() }

    func set() throws {
        try mark.set()
        if stallFlag.exists() {
            try stallFlag.remove()
            // Stderr reaches the journal: the test waits for this line before changing a permission.
            let line = Array("test hook: stalling while restoring (the restoring mark is set)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            blockForever()
        }
        guard flag.exists() else { return }
        try flag.remove()
        // The test hook: die the way a crash in the middle of restoring would (SIGABRT, restarted on-failure).
        abort()
    }

    func clear() throws { try mark.clear() }
}
