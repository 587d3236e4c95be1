import ArgumentParser
import RelaunchctlCore
import RelaunchContract
import RestorationKit

#if canImport(Glibc)
import Glibc
#endif

/// `relaunchctl archive dump FILE`: a saved restoration archive, readable.
struct ArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Inspect saved restoration archives.",
        subcommands: [Dump.self]
    )
}

extension ArchiveCommand {
    struct Dump: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dump",
            abstract: "Print a restoration archive: its header, every preserved controller and scene session.",
            discussion: """
            The app keeps its archive in its state directory (for checkin-demo: \
            /var/lib/checkin-demo/restoration.archive). A damaged archive is refused with the reason \
            the app would log when discarding it (corrupt, unsupported-format, too-large); the exit \
            status is then 1. A scene-based app's archive (format 4) lists each scene session: its \
            identifier, role, whether its own record checksum holds, and its activity; a session whose \
            record is damaged is shown as discarded, with its reason, while the others print. The app's limits hold: at most 16 MiB is read, and only a regular file. \
            Run as root, it does not follow a symbolic link in the file's place: the app's folder \
            is the app's to change.
            """
        )

        @Argument(help: "The archive file.") var file: String
        @Flag(help: "Print the archive as JSON.") var json = false

        func run() async throws {
            let bytes: [UInt8]
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                throw CLIError.failed(
                    "cannot read \(Echo.quoted(file, limit: 200)): it is a folder; name an archive file, e.g. /var/lib/checkin-demo/restoration.archive")
            }
            do {
                // The app's own limit (16 MiB), and as root no link followed: the app may have put one there.
                guard let read = try ArchiveFile(directory: folder, fileName: name).read(followingLinks: geteuid() != 0) else {
                    throw CLIError.failed("no archive at \(file)")
                }
                bytes = read
            } catch let error as StorageError {
                throw CLIError.failed("cannot read \(file): \(error)")
            }
            let decoded: DecodedArchive
            do {
                decoded = try ArchiveCodec.decode(bytes)
            } catch {
                throw CLIError.failed("\(file) is not a usable archive (reason \(error.discardReason)): \(error)")
            }
            print(json ? ArchiveText.json(decoded) : ArchiveText.text(decoded), terminator: "")
        }

        private var folder: String {
            guard let slash = file.lastIndex(of: "/") else { return "." }
            return slash == file.startIndex ? "/" : String(file[..<slash])
        }

        private var name: String {
            guard let slash = file.lastIndex(of: "/") else { return file }
            return String(file[file.index(after: slash)...])
        }
    }
}
