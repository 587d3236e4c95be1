internal import RestorationKit

#if canImport(Glibc)
import Glibc
#endif

/// The restoring mark, with the `crash-next-restore` test hook: when the flag file exists, setting the
/// mark consumes the flag and aborts, as if restoring crashed. The launch after that finds the mark and
/// discards the saved state (`crashed-during-restore`).
final class CrashingRestoringMark: RestoringMarkStore {
    /// The flag file's name in the state directory.
    static let flagFileName = "crash-next-restore"

    private let mark: RestoringMarkFile
    private let flag: ArchiveFile

    init(directory: String) {
        mark = RestoringMarkFile(directory: directory)
        flag = ArchiveFile(directory: directory, fileName: Self.flagFileName)
    }

    /// Arms the hook for the next launch that restores.
    static func arm(directory: String) throws(StorageError) {
        try ArchiveFile(directory: directory, fileName: flagFileName).write(Array("crash\n".utf8))
    }

    func isSet() throws -> Bool { try mark.isSet() }

    func set() throws {
        try mark.set()
        guard flag.exists() else { return }
        try flag.remove()
        // The test hook: die the way a crash in the middle of restoring would (SIGABRT, restarted on-failure).
        abort()
    }

    func clear() throws { try mark.clear() }
}
