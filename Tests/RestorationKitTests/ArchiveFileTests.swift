import Glibc
import RelaunchTestSupport
import RestorationKit
import Testing

/// The archive file and the restoring mark on a real file system.
@Suite("Archive file")
struct ArchiveFileTests {
    private func writeRaw(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test("written bytes read back; a missing archive reads as nil")
    func writeThenRead() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let file = ArchiveFile(directory: folder.path)
        #expect(try file.read() == nil)
        let bytes = try sampleBytes()
        try file.write(bytes)
        #expect(try file.read() == bytes)
        try file.write(try sampleBytes(generation: 2))
        #expect(try ArchiveCodec.decode(try #require(try file.read())).archive.header.generation == 2)
        #expect(access(file.temporaryPath, F_OK) != 0, "no temporary file is left behind")
    }

    @Test("a temporary file left by an interrupted write is ignored and the old archive stays readable")
    func interruptedWrite() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let file = ArchiveFile(directory: folder.path)
        let old = try sampleBytes(generation: 1)
        try file.write(old)
        // A SIGKILL between creating the temporary file and the rename leaves half an archive there.
        try writeRaw(Array(try sampleBytes(generation: 2).prefix(20)), to: file.temporaryPath)
        #expect(try file.read() == old)
        #expect(try ArchiveCodec.decode(try #require(try file.read())).archive.header.generation == 1)
        try file.write(try sampleBytes(generation: 3))
        #expect(try ArchiveCodec.decode(try #require(try file.read())).archive.header.generation == 3)
    }

    @Test("remove deletes the archive and a leftover temporary file; removing nothing is fine")
    func remove() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let file = ArchiveFile(directory: folder.path)
        try file.write(try sampleBytes())
        try writeRaw([1, 2, 3], to: file.temporaryPath)
        try file.remove()
        #expect(try file.read() == nil)
        #expect(access(file.temporaryPath, F_OK) != 0)
        try file.remove()
    }

    @Test("an oversized file is read only up to the limit and refused as too-large")
    func oversized() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let file = ArchiveFile(directory: folder.path)
        try file.write([UInt8](repeating: 7, count: 5000))
        let bytes = try #require(try file.read(limit: 100))
        #expect(bytes.count == 101)
        #expect(throws: ArchiveError.tooLarge(byteCount: 101, limit: 100)) {
            try ArchiveCodec.decode(bytes, limits: ArchiveLimits(soft: 50, hard: 100))
        }
    }

    @Test("a failed write names the operation and the path")
    func failedWrite() {
        let file = ArchiveFile(directory: "/nonexistent/relaunch")
        let error = #expect(throws: StorageError.self) { try file.write([1]) }
        #expect(error?.code == ENOENT)
        #expect(error?.description.contains("/nonexistent/relaunch/.restoration.archive.tmp") == true)
    }

    @Test("the restoring mark file is set, seen and cleared")
    func restoringMark() throws {
        let folder = try TemporaryDirectory(prefix: "relaunch-archive")
        let mark = RestoringMarkFile(directory: folder.path)
        #expect(try !mark.isSet())
        try mark.set()
        #expect(try mark.isSet())
        #expect(try RestoringMarkFile(directory: String(mark.path.dropLast("/restoring.mark".count))).isSet())
        try mark.clear()
        #expect(try !mark.isSet())
    }

    @Test("the in-memory restoring mark starts as given and is set and cleared")
    func memoryMark() throws {
        let mark = MemoryRestoringMark()
        #expect(try !mark.isSet())
        try mark.set()
        #expect(try mark.isSet())
        try mark.clear()
        #expect(try !mark.isSet())
        #expect(try MemoryRestoringMark(true).isSet())
    }
}
