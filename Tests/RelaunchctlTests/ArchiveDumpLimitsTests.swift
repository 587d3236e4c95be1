import Glibc
import RestorationKit
import RelaunchTestSupport
import Testing

/// `relaunchctl archive dump` reads as the app does: at most its 16 MiB, only a regular file, and
/// as root never through a link the app may have put in its own folder (issue 20).
@Suite("relaunchctl archive dump's limits")
struct ArchiveDumpLimitsTests {
    @Test("a file over the app's hard limit is refused as too-large")
    func tooLarge() throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let path = folder.path + "/restoration.archive"
        defer { unlink(path) }
        let file = try #require(fopen(path, "w"))
        fseek(file, ArchiveLimits.default.hard, SEEK_SET)
        fputc(0, file)
        fclose(file)
        let result = try Executable.run(["archive", "dump", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("reason too-large"), "\(result.stderr)")
    }

    @Test("a FIFO is refused at once, not waited on")
    func fifo() throws {
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let path = folder.path + "/restoration.archive"
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        let result = try Executable.run(["archive", "dump", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is not a regular file"), "\(result.stderr)")
    }

    @Test("as root, a symbolic link in the archive's place is not followed")
    func symlinkAsRoot() throws {
        guard geteuid() == 0 else { return }
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let target = folder.path + "/target"
        let path = folder.path + "/restoration.archive"
        defer { unlink(path); unlink(target) }
        try folder.write("secret", to: "target")
        #expect(symlink(target, path) == 0)
        let result = try Executable.run(["archive", "dump", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("symbolic link, which is not followed"), "\(result.stderr)")
        #expect(!result.stderr.contains("73 65 63"), "nothing of the target is shown")
    }

    @Test("a forged archive of many records under one deep path prints in bounded space")
    func deepPathsShortened() throws {
        // 3,000 controllers at the bottom of a 3,000-deep chain: 9 million identifiers spelled out.
        var archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:], controllers: [])
        archive.controllers = [
            ArchivedController(path: (0..<3_000).map { "n\($0)" }, className: "C", restorationClassName: nil, relationships: [], state: [:])
        ]
        // Decoded, the record's path is a node of the archive's table; its copies share it, so the
        // archive stores the path once (about 40 KB in all).
        let deepest = try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive.controllers[0]
        archive.controllers = Array(repeating: deepest, count: 3_000)
        let folder = try TemporaryDirectory(prefix: "relaunchctl-test")
        let file = ArchiveFile(directory: folder.path)
        try file.write(try ArchiveCodec.encode(archive))
        let result = try Executable.run(["archive", "dump", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("those deeper than 64 are shown by their last 8"))
        #expect(result.stdout.contains("…(2992 more)/n2992/n2993/n2994/n2995/n2996/n2997/n2998/n2999\n"))
        #expect(result.stdout.utf8.count < 1_000_000)
    }
}
