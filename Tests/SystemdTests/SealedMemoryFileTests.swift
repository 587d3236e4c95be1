import Testing
@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

@Suite("Sealed memory files")
struct SealedMemoryFileTests {
    @Test func roundTripsBytes() throws {
        let bytes: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fd = try SealedMemoryFile.create(name: "round-trip", bytes: bytes)
        defer { close(fd) }
        #expect(try SealedMemoryFile.readAll(from: fd) == bytes)
        // pread leaves the offset alone: a second read sees the same bytes.
        #expect(try SealedMemoryFile.readAll(from: fd) == bytes)
    }

    @Test("reading stops at the limit, however large the file")
    func limit() throws {
        let bytes: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        let fd = try SealedMemoryFile.create(name: "limited", bytes: bytes)
        defer { close(fd) }
        #expect(try SealedMemoryFile.readAll(from: fd, limit: 70_001) == Array(bytes.prefix(70_001)))
        #expect(try SealedMemoryFile.readAll(from: fd, limit: 10) == Array(bytes.prefix(10)))
        #expect(try SealedMemoryFile.readAll(from: fd, limit: 300_000) == bytes)
    }

    @Test func emptyContents() throws {
        let fd = try SealedMemoryFile.create(name: "empty", bytes: [])
        defer { close(fd) }
        #expect(try SealedMemoryFile.readAll(from: fd).isEmpty)
    }

    @Test func sealsRefuseChanges() throws {
        let fd = try SealedMemoryFile.create(name: "sealed", bytes: Array("state".utf8))
        defer { close(fd) }
        #expect(try SealedMemoryFile.seals(of: fd) == .all)

        var byte: UInt8 = 0x41
        #expect(pwrite(fd, &byte, 1, 0) == -1)
        #expect(errno == EPERM)
        #expect(ftruncate(fd, 1) == -1)
        #expect(ftruncate(fd, 100) == -1)
        #expect(try SealedMemoryFile.readAll(from: fd) == Array("state".utf8))
    }

    @Test func readingAClosedDescriptorSaysWhat() {
        #expect {
            _ = try SealedMemoryFile.readAll(from: -1)
        } throws: { error in
            let error = error as? SystemdError
            return error?.code == .badFileDescriptor && error?.operation == "pread"
        }
    }
}
