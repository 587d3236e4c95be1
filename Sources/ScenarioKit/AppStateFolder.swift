package import RelaunchctlCore
#if canImport(Glibc)
import Glibc
#endif

/// An app's state folder (`/var/lib/APP`) as root reaches into it: never through a symbolic link.
///
/// The folder and what is in it belong to the app's user, who can put a link there (say
/// `restoration.archive` → `/etc/shadow`) for root to write through. So the folder is opened one
/// component at a time from `/` with `O_NOFOLLOW` (a link anywhere on the way is refused, as
/// openat2's `RESOLVE_NO_SYMLINKS` would), and every file in it is opened, deleted or written with
/// `openat`/`unlinkat` beneath that descriptor, again with `O_NOFOLLOW`; a file written must be a
/// regular file with one link (a hard link to another file is refused too).
package struct AppStateFolder: ~Copyable {
    /// The folder's path, for messages.
    package let path: String
    private let descriptor: Int32

    /// Opens the folder at the absolute `path`, refusing a symbolic link in any of its components.
    ///
    /// - Throws: `CLIError.failed` naming the component that is a link or cannot be opened.
    package init(_ path: String) throws(CLIError) {
        guard path.hasPrefix("/") else { throw .failed("\(path) is not an absolute path") }
        var current = Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw .failed("cannot open /: \(errnoText())") }
        var reached = ""
        for component in path.split(separator: "/") {
            reached += "/" + component
            guard component != "..", component != "." else {
                _ = Glibc.close(current)
                throw .failed("\(path) has a '\(component)' component; name the app's folder plainly")
            }
            let next = openat(current, String(component), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            _ = Glibc.close(current)
            guard next >= 0 else {
                if code == ELOOP || (code == ENOTDIR && Self.isLink(reached)) {
                    throw .failed("\(reached) is a symbolic link; as root the runner does not follow links into an app's folder")
                }
                throw .failed("cannot open \(reached): \(String(cString: strerror(code)))")
            }
            current = next
        }
        self.path = path
        descriptor = current
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Deletes `name` in the folder (a link is deleted itself, never what it points to); a missing
    /// file is not an error.
    package func remove(_ name: String) throws(CLIError) {
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else {
            throw .failed("cannot delete \(path)/\(name): \(errnoText())")
        }
    }

    /// Runs `body` with `name` in the folder opened for reading and writing: a regular file with
    /// one link, never followed through a symbolic link.
    ///
    /// - Throws: `CLIError.failed` when it is missing, a link, not a regular file, or hard-linked.
    package func withFileForUpdate<T>(_ name: String, _ body: (Int32) throws(CLIError) -> T) throws(CLIError) -> T {
        let file = "\(path)/\(name)"
        let fd = openat(descriptor, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP {
                throw .failed("\(file) is a symbolic link; as root the runner does not write through links in an app's folder")
            }
            throw .failed("cannot open \(file): \(errnoText())")
        }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failed("cannot stat \(file): \(errnoText())") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .failed("\(file) is not a regular file; it is left alone") }
        guard info.st_nlink == 1 else {
            throw .failed("\(file) has \(info.st_nlink) hard links; as root the runner does not write a file linked elsewhere")
        }
        return try body(fd)
    }

    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
