internal import Glibc

/// The archive on disk: the only file I/O of the engine.
///
/// `write` is atomic and durable: the bytes go to a temporary file in the same directory, which is
/// fsynced, renamed over the archive, and the directory fsynced. A SIGKILL at any instant leaves the
/// old archive or the new one, never a torn one; a leftover temporary file is ignored by `read` and
/// replaced by the next `write`.
public struct ArchiveFile: Sendable {
    /// The directory holding the archive (for example systemd's `$STATE_DIRECTORY`).
    public let directory: String
    /// The archive's file name.
    public let fileName: String

    /// The archive `fileName` in `directory`.
    public init(directory: String, fileName: String = "restoration.archive") {
        self.directory = directory
        self.fileName = fileName
    }

    /// The archive's full path.
    public var path: String { directory + "/" + fileName }
    /// The temporary file a write goes through.
    public var temporaryPath: String { directory + "/." + fileName + ".tmp" }

    /// Replaces the archive with `bytes`, atomically and durably.
    ///
    /// - Throws: `StorageError` naming the step and path that failed; the old archive is then intact.
    public func write(_ bytes: [UInt8]) throws(StorageError) {
        let temporary = temporaryPath
        let descriptor = try Syscall.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, "create")
        do {
            try Syscall.writeAll(descriptor, bytes, temporary)
            try Syscall.fsync(descriptor, temporary)
        } catch {
            _ = Glibc.close(descriptor)
            _ = Glibc.unlink(temporary)
            throw error
        }
        try Syscall.close(descriptor, temporary)
        _ = try Syscall.run("rename to \(path)", temporary) { Glibc.rename(temporary, path) }
        try Syscall.fsyncDirectory(directory)
    }

    /// The archive's bytes, or nil when there is none.
    ///
    /// Only a regular file is read: a FIFO or a device put in its place is refused without blocking.
    ///
    /// - Parameters:
    ///   - limit: Reads at most `limit + 1` bytes, so that an oversized file is cheap to refuse
    ///     (`ArchiveCodec.decode` then reports `too-large`).
    ///   - followingLinks: false refuses a symbolic link in the file's place (`O_NOFOLLOW`), as root
    ///     must when the folder belongs to someone else.
    /// - Throws: `StorageError` when the file exists but cannot be read, is not a regular file, or is a
    ///   link that is not to be followed (`ELOOP`).
    public func read(limit: Int = ArchiveLimits.default.hard, followingLinks: Bool = true) throws(StorageError) -> [UInt8]? {
        let descriptor: Int32
        do {
            descriptor = try Syscall.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
        } catch where error.code == ENOENT {
            return nil
        } catch where error.code == ELOOP && !followingLinks {
            throw StorageError(
                operation: "open", path: path, code: ELOOP,
                advice: "it is a symbolic link, which is not followed here; name the file itself")
        }
        defer { _ = Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw StorageError(operation: "stat", path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StorageError(operation: "read", path: path, code: EINVAL, advice: "it is not a regular file; name an archive file")
        }
        return try Syscall.readUpTo(descriptor, limit: limit + 1, path)
    }

    /// Whether the archive exists.
    public func exists() -> Bool { Glibc.access(path, F_OK) == 0 }

    /// Deletes the archive (and any leftover temporary file); nothing to delete is not an error.
    ///
    /// - Throws: `StorageError` when a file exists but cannot be deleted.
    public func remove() throws(StorageError) {
        for file in [path, temporaryPath] where Glibc.unlink(file) != 0 && errno != ENOENT {
            throw StorageError(operation: "delete", path: file, code: errno)
        }
        try Syscall.fsyncDirectory(directory)
    }
}
