import RestorationKit
import Testing

/// The scene sessions in the archive: a damaged session alone is discarded, and extended restoration
/// keeps the restoring mark until every scene completed.
@Suite("Scene archive")
struct SceneArchiveTests {
    /// Three windows' archive as bytes, and the names of their sessions.
    private func threeWindows() throws -> (bytes: [UInt8], names: [String: String], identifiers: [String]) {
        let (application, log) = sceneApp(windows: ["A", "B", "C"])
        application.enterBackground()
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        return (try ArchiveCodec.encode(archive), log.names, application.openSessions.map(\.persistentIdentifier))
    }

    /// Where the record of the session whose activity is titled `title` starts (its version byte).
    private func recordStart(of title: String, in bytes: [UInt8]) throws -> Int {
        let needle = Array(title.utf8)
        let found = bytes.indices.first { start in
            start + needle.count <= bytes.count && Array(bytes[start..<start + needle.count]) == needle
        }
        let titleAt = try #require(found, "no title '\(title)' in the archive")
        // version, flag, type (length + "org.relaunch.notes.editing"), title flag, title length
        return titleAt - 2 - (1 + "org.relaunch.notes.editing".utf8.count) - 2
    }

    /// Puts the file's checksum right again after `bytes` were changed.
    private func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let sum = CRC32.checksum(bytes[16...], continuing: CRC32.checksum(bytes[4..<12]))
        for index in 0..<4 { bytes[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
        return bytes
    }

    @Test("one damaged session among good ones is discarded alone, with its reason; the others restore")
    func damagedSession() throws {
        let (bytes, names, identifiers) = try threeWindows()
        #expect(bytes[4] == 4)
        var damaged = bytes
        // A byte of B's note flipped: B's own checksum no longer matches.
        let start = try recordStart(of: "note B", in: bytes)
        let note = try #require((start..<bytes.count).first { bytes[$0...].starts(with: Array("text of B".utf8)) })
        damaged[note] ^= 0x20
        let decoded = try ArchiveCodec.decode(resealed(damaged)).archive
        #expect(decoded.sceneSessions.map(\.identifier) == identifiers)
        #expect(decoded.sceneSessions.map(\.discardReason) == [nil, .corrupt, nil])
        #expect(decoded.sceneSessions.map { $0.activity?.title } == ["note A", nil, "note C"])

        let (application, log) = relaunchedSceneApp(names: names)
        let report = try restored(application.launch(restoringFrom: decoded))
        #expect(application.openSessions.map { noteDelegate(of: $0)?.note } == ["text of A", "", "text of C"])
        #expect(application.openSessions.map(\.restorationDiscardReason) == [nil, .corrupt, nil])
        #expect(log.entries.contains("B willConnect activity=nil"))
        #expect(!log.entries.contains { $0.hasPrefix("B restoreInteractionState") })
        #expect(report.notes.contains { $0.contains("scene session \(identifiers[1])") && $0.contains("corrupt") })
    }

    @Test("a damaged session's detail names both checksums in eight hex digits")
    func damagedSessionDetail() throws {
        let (bytes, _, identifiers) = try threeWindows()
        let start = try recordStart(of: "note A", in: bytes)
        let length = Int(bytes[start - 1])
        var damaged = bytes
        // The record's last byte: B's and C's records stay whole.
        damaged[start + length - 1] ^= 0x01
        let stored = CRC32.checksum(bytes[start..<start + length])
        let actual = CRC32.checksum(damaged[start..<start + length])
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
        }
        let decoded = try ArchiveCodec.decode(resealed(damaged)).archive
        #expect(decoded.sceneSessions.map(\.discardReason) == [.corrupt, nil, nil])
        #expect(decoded.sceneSessions.map(\.recordChecksumHolds) == [false, true, true])
        let detail = try #require(decoded.sceneSessions[0].discardDetail)
        #expect(detail.hasPrefix("record of scene session \(identifiers[0]) at byte "))
        #expect(detail.hasSuffix(" has checksum \(hex(actual)), expected \(hex(stored))"), "\(detail)")
    }

    @Test("a session record of a newer record version is discarded alone as unsupported-format")
    func newerRecord() throws {
        let (bytes, _, _) = try threeWindows()
        var changed = bytes
        let start = try recordStart(of: "note C", in: bytes)
        changed[start] = 9
        // C's own checksum made right, so that its version is what is wrong.
        let length = Int(bytes[start - 1])
        let sum = CRC32.checksum(changed[start..<start + length])
        for index in 0..<4 { changed[start + length + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
        let decoded = try ArchiveCodec.decode(resealed(changed)).archive
        #expect(decoded.sceneSessions.map(\.discardReason) == [nil, nil, .unsupportedFormat])
        #expect(decoded.sceneSessions[2].discardDetail?.contains("version") == true)
    }

    @Test("a damaged file checksum still discards the whole archive")
    func damagedFile() throws {
        var (bytes, _, _) = try threeWindows()
        bytes[bytes.count - 6] ^= 1
        #expect(throws: ArchiveError.self) { try ArchiveCodec.decode(bytes) }
    }
}
