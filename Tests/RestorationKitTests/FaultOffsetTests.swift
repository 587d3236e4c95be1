import RestorationKit
import Testing

/// A malformed archive's error names the byte that is wrong: the flag or kind byte itself, found
/// here by what is written next to it.
@Suite("Where a malformed archive is wrong")
struct FaultOffsetTests {
    private func archive() -> RestorationArchive {
        RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:],
            controllers: [
                ArchivedController(
                    path: ["Root"], className: "App.FlagFollows", restorationClassName: nil,
                    relationships: [.init(.child, "KindPrecedes")], state: ["flag": .bool(true)]),
            ],
            objects: [ArchivedObject(path: ["ObjectFlagFollows"], restorationClassName: nil, state: [:])])
    }

    /// Where `text` starts in `bytes`.
    private func position(of text: String, in bytes: [UInt8]) throws -> Int {
        let needle = Array(text.utf8)
        return try #require(bytes.indices.first { bytes[$0...].starts(with: needle) }, "no '\(text)' in the archive")
    }

    /// `bytes` with `value` at `offset`, the length and checksum put right, decoded: the error.
    private func error(setting offset: Int, to value: UInt8, in bytes: [UInt8]) -> ArchiveError? {
        var changed = bytes
        changed[offset] = value
        return #expect(throws: ArchiveError.self) { try ArchiveCodec.decode(resealed(changed)) }
    }

    @Test("format 2: a bad restoration class flag, relationship kind or object flag is named at its byte")
    func formatTwo() throws {
        let bytes = try ArchiveCodec.encode(archive(), formatVersion: 2)
        let classFlag = try position(of: "App.FlagFollows", in: bytes) + "App.FlagFollows".utf8.count
        #expect(error(setting: classFlag, to: 7, in: bytes)
            == .malformed(offset: classFlag, detail: "restoration class flag is 7, not 0 or 1"))
        // The kind byte, then the identifier's 32-bit length, then the identifier.
        let kind = try position(of: "KindPrecedes", in: bytes) - 4 - 1
        #expect(error(setting: kind, to: 9, in: bytes) == .malformed(offset: kind, detail: "unknown relationship kind 9"))
        let objectFlag = try position(of: "ObjectFlagFollows", in: bytes) + "ObjectFlagFollows".utf8.count
        #expect(error(setting: objectFlag, to: 2, in: bytes)
            == .malformed(offset: objectFlag, detail: "object restoration class flag is 2, not 0 or 1"))
    }

    /// Sets each byte of `bytes` past the prefix to `value` in turn and decodes: every error
    /// `detail` names a byte holding `value` (the one read); returns how often it named the byte set.
    private func timesNamed(_ detail: String, setting value: UInt8, in bytes: [UInt8]) -> Int {
        var hits = 0
        for offset in ArchiveCodec.prefixSize..<bytes.count where bytes[offset] != value {
            var changed = bytes
            changed[offset] = value
            do {
                _ = try ArchiveCodec.decode(resealed(changed))
            } catch {
                guard let named = changed.indices.first(where: { error == .malformed(offset: $0, detail: detail) }) else { continue }
                #expect(changed[named] == value, "set at \(offset), named \(named): \(detail)")
                if named == offset { hits += 1 }
            }
        }
        return hits
    }

    @Test("a bad relationship kind (format 3) or Boolean (formats 2 and 3) is named at its byte, wherever it is")
    func byteByByte() throws {
        let three = try ArchiveCodec.encode(archive())
        #expect(three[4] >= 3, "format 3 or later")
        #expect(timesNamed("unknown relationship kind 9", setting: 9, in: three) == 1)
        #expect(timesNamed("Boolean is 7, not 0 or 1", setting: 7, in: three) == 1)
        #expect(timesNamed("Boolean is 7, not 0 or 1", setting: 7, in: try ArchiveCodec.encode(archive(), formatVersion: 2)) == 1)
    }
}
