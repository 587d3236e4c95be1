import Glibc
import RelaunchTestSupport
@testable import RestorationKit
import Testing

/// The archive file where the file system answers something else than a plain file: links, a
/// path through a file, a pipe delivering the bytes in pieces, interrupted and failing calls.
@Suite("Archive file, unusual answers")
struct ArchiveFileEdgeTests {
    @Test("a symbolic link to the archive is followed unless told not to, then refused with advice")
    func linkToArchive() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let directory = folder.path
        let target = ArchiveFile(directory: directory, fileName: "target")
        try target.write(try sampleBytes())
        let file = ArchiveFile(directory: directory)
        #expect(symlink(target.path, file.path) == 0)
        #expect(try file.read() == (try sampleBytes()))
        let error = #expect(throws: StorageError.self) { try file.read(followingLinks: false) }
        #expect(error?.code == ELOOP)
        #expect(error?.advice?.contains("symbolic link") == true)
    }

    @Test("a loop of links followed is the system's ELOOP, without the advice about not following")
    func linkLoop() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let file = ArchiveFile(directory: folder.path)
        #expect(symlink(file.path, file.path) == 0)
        let error = #expect(throws: StorageError.self) { try file.read() }
        #expect(error?.code == ELOOP)
        #expect(error?.advice == nil)
    }

    @Test("a path through a regular file is the system's ENOTDIR, whether links are followed or not")
    func pathThroughFile() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let directory = folder.path
        let plain = ArchiveFile(directory: directory, fileName: "plain")
        try plain.write([1])
        let file = ArchiveFile(directory: plain.path)
        for following in [true, false] {
            let error = #expect(throws: StorageError.self) { try file.read(followingLinks: following) }
            #expect(error?.code == ENOTDIR, "following links: \(following)")
            #expect(error?.advice == nil, "following links: \(following)")
        }
    }

    @Test("removing an archive succeeds whatever errno held before")
    func removeWithClearErrno() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let file = ArchiveFile(directory: folder.path)
        try file.write([1, 2])
        errno = 0
        try file.remove()
        #expect(!file.exists())
    }

    @Test("bytes arriving in pieces larger than the first buffer are read up to the limit, or to the end")
    func readFromPipe() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        for limit in [150_001, 1_000_000] {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            defer { close(ends[0]) }
            // Room for every byte at once, so that this thread can write them all before reading.
            try #require(fcntl(ends[1], 1031 /* F_SETPIPE_SZ */, 1 << 20) >= bytes.count)
            let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            close(ends[1])
            try #require(written == bytes.count)
            let read = try Syscall.readUpTo(ends[0], limit: limit, "pipe")
            #expect(read.count == min(limit, bytes.count), "limit \(limit)")
            #expect(read == Array(bytes.prefix(limit)), "limit \(limit)")
        }
    }

    @Test("a call interrupted (EINTR) is made again; any other failure is thrown at once")
    func retries() throws {
        var calls = 0
        let result = try Syscall.run("read", "somewhere") { () -> Int in
            calls += 1
            if calls == 1 {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(result == 5 && calls == 2)
        calls = 0
        let error = #expect(throws: StorageError.self) {
            try Syscall.run("read", "somewhere") { () -> Int in
                calls += 1
                if calls == 1 {
                    errno = EBADF
                    return -1
                }
                return 5
            }
        }
        #expect(error == StorageError(operation: "read", path: "somewhere", code: EBADF))
        #expect(calls == 1)
    }
}
