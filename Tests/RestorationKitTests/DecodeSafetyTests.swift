@testable import RestorationKit
import Testing

/// Decoding any bytes, forged ones included, costs work in proportion to their size and ends in an
/// archive or an `ArchiveError`, never a trap (issue 20): an archive that crashed the app at every
/// launch would end in systemd's start-limit-hit.
///
/// Work is counted, not timed (`ArchiveCodec.decode(_:expectedBuild:limits:work:)` counts the values
/// the decoder makes), so these hold on a machine of any speed.
@Suite("Archive decoding safety")
struct DecodeSafetyTests {
    @Test("a forged format-3 archive of a deep chain and many records decodes with work linear in its size")
    func formatThreeLinear() throws {
        let small = try measure(Forge.deepChain(nodes: 2_000, recordsAtTheBottom: 2_000))
        let large = try measure(Forge.deepChain(nodes: 4_000, recordsAtTheBottom: 4_000))
        #expect(large.bytes < small.bytes * 21 / 10, "the forged archive doubles: \(small.bytes) → \(large.bytes) bytes")
        // Quadratic work (every object's path built whole) would be 4 times as much; linear work is 2 times.
        #expect(
            large.work * 10 <= small.work * 25,
            "work grows like the bytes: \(small.work) values for \(small.bytes) bytes, \(large.work) for \(large.bytes)")
        #expect(large.work <= large.bytes * ByteReader.workPerByte, "within the reader's budget")
    }

    @Test("the decoded records of a forged deep chain still name their whole paths")
    func formatThreeDeepPaths() throws {
        let decoded = try ArchiveCodec.decode(Forge.deepChain(nodes: 300, recordsAtTheBottom: 3)).archive
        #expect(decoded.objects.count == 3 && decoded.controllers.count == 3)
        #expect(decoded.objects[0].path == [String](repeating: "a", count: 300))
        #expect(decoded.controllers[2].path.count == 300)
    }

    @Test("restoring objects under a forged deep path builds no path for those left out")
    func restoreDeepObjects() throws {
        let archive = try ArchiveCodec.decode(Forge.deepChain(nodes: 300, recordsAtTheBottom: 3)).archive
        let report = try restored(makeApplication().launch(restoringFrom: archive))
        #expect(report.restoredObjects.isEmpty)
        let left = report.notes.filter { $0.hasPrefix("object ") }
        #expect(left == Array(repeating: "object …(292 more)/a/a/a/a/a/a/a/a is not restored: its restoration parent was not", count: 3))
    }

    @Test("format 2's paths cost work in proportion to their bytes")
    func formatTwoLinear() throws {
        func archive(_ depth: Int) throws -> [UInt8] {
            let path = (0..<depth).map { "n\($0)" }
            let controllers = (1...depth).map {
                ArchivedController(path: Array(path.prefix($0)), className: "C", restorationClassName: nil, relationships: [], state: [:])
            }
            return try ArchiveCodec.encode(
                RestorationArchive(header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:],
                    controllers: controllers, objects: [ArchivedObject(path: path, restorationClassName: nil, state: [:])]),
                formatVersion: 2)
        }
        let small = try measure(archive(100))
        let large = try measure(archive(200))
        // The bytes themselves are quadratic here (format 2 spells out every path): work follows the bytes.
        #expect(small.work <= small.bytes && large.work <= large.bytes)
    }

    @Test("a decoder that would make more values than its budget refuses the archive as corrupt")
    func budget() throws {
        let bytes = try ArchiveCodec.encode(sampleArchive())
        let error = #expect(throws: ArchiveError.self) {
            _ = try ByteReader.read(bytes, from: ArchiveCodec.prefixSize) { (reader) throws(ArchiveError) in
                try reader.charge(reader.workLimit + 1)
            }
        }
        #expect(error?.code == .malformed && error?.discardReason == .corrupt)
        #expect(error?.description.contains("decoding would make over") == true)
    }

    @Test("a reader of N bytes may make 4 values a byte plus 64, not one more")
    func budgetSize() throws {
        for size in [0, 1, 17, 4096] {
            let bytes = [UInt8](repeating: 0, count: size)
            try ByteReader.read(bytes) { (reader) throws(ArchiveError) in
                try reader.charge(ByteReader.workPerByte * size + 64)
            }
            #expect(throws: ArchiveError.self, "\(size) bytes") {
                try ByteReader.read(bytes) { (reader) throws(ArchiveError) in
                    try reader.charge(ByteReader.workPerByte * size + 65)
                }
            }
        }
    }

    @Test("a string field is UTF-8 checked whatever its bytes: only ASCII is taken without the check")
    func stringBytes() throws {
        let valid: [([UInt8], String)] = [([1, 0x41], "A"), ([2, 0xC3, 0xA9], "é"), ([4, 0x61, 0xE2, 0x82, 0xAC], "a€")]
        for (bytes, string) in valid {
            #expect(try ByteReader.read(bytes) { (reader) throws(ArchiveError) in try reader.readShortString("a name") } == string)
        }
        for bytes: [UInt8] in [[1, 0xFF], [2, 0xC3, 0x28], [2, 0x41, 0x80], [2, 0xE2, 0x82]] {
            let error = #expect(throws: ArchiveError.self, "\(bytes)") {
                try ByteReader.read(bytes) { (reader) throws(ArchiveError) in try reader.readShortString("a name") }
            }
            #expect(error?.description.contains("a name is not valid UTF-8") == true, "\(bytes)")
        }
    }

    @Test("every truncation of an archive of every format is a one-line error, never a trap", arguments: [1, 2, 3] as [UInt16])
    func truncations(format: UInt16) throws {
        let bytes = try Forge.sample(format: format)
        #expect(try ArchiveCodec.decode(bytes).archive.header.formatVersion == format)
        for length in 0..<bytes.count {
            let cut = Array(bytes.prefix(length))
            for candidate in [cut, resealed(cut)] {
                let error = #expect(throws: ArchiveError.self, "format \(format) cut to \(length) bytes") {
                    _ = try ArchiveCodec.decode(candidate)
                }
                #expect(error.map(isClear) == true, "format \(format) cut to \(length): \(error.map { "\($0)" } ?? "")")
            }
        }
    }

    @Test("every byte of an archive of every format, set to a forged value and resealed, decodes or is refused clearly",
        arguments: [1, 2, 3] as [UInt16])
    func forgedBytes(format: UInt16) throws {
        let bytes = try Forge.sample(format: format)
        var refused = 0
        for offset in ArchiveCodec.prefixSize..<bytes.count {
            for value in Set([0x00, 0x01, 0x7F, 0x80, 0xFF, bytes[offset] ^ 0x01, bytes[offset] ^ 0x80] as [UInt8]) {
                var forged = bytes
                forged[offset] = value
                var work = 0
                do {
                    _ = try ArchiveCodec.decode(resealed(forged), work: &work)
                } catch {
                    refused += 1
                    #expect(isClear(error), "format \(format), byte \(offset) = \(value): \(error)")
                }
                #expect(work <= forged.count * ByteReader.workPerByte + 64)
            }
        }
        #expect(refused > 0)
    }

    @Test("a forged count or length in any four bytes of a format-2 archive is refused before anything is allocated")
    func forgedCounts() throws {
        for format in [1, 2] as [UInt16] {
            let bytes = try Forge.sample(format: format)
            for offset in ArchiveCodec.prefixSize..<(bytes.count - 3) {
                for value in [0xFFFF_FFFF, 0x7FFF_FFFF, 0x0100_0000] as [UInt32] {
                    var forged = bytes
                    for index in 0..<4 { forged[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
                    do {
                        _ = try ArchiveCodec.decode(resealed(forged))
                    } catch {
                        #expect(isClear(error), "format \(format), offset \(offset) = \(value): \(error)")
                    }
                }
            }
        }
    }

    private func measure(_ bytes: [UInt8]) throws -> (bytes: Int, work: Int) {
        var work = 0
        _ = try ArchiveCodec.decode(bytes, work: &work)
        return (bytes.count, work)
    }

    /// One line that says it is about a restoration archive and names the reason it is discarded with.
    private func isClear(_ error: ArchiveError) -> Bool {
        let text = error.description
        return !text.contains("\n") && text.hasPrefix("restoration archive ") && text.contains("'\(error.discardReason)'")
    }
}

/// Archives written by hand, byte by byte, as a forger (or a writer with a bug) would.
enum Forge {
    /// Format 3: one string "a", a chain of `nodes` path nodes each named "a", then
    /// `recordsAtTheBottom` controllers and as many objects, all at the deepest node.
    static func deepChain(nodes: Int, recordsAtTheBottom records: Int) -> [UInt8] {
        var payload = Payload()
        payload.u64(1)  // generation
        payload.u64(0)  // timestamp
        payload.shortString("1")  // build
        payload.varint(0)  // predefined strings used
        payload.varint(2)  // strings: "a" (0) and "C" (1)
        payload.shortString("a")
        payload.shortString("C")
        payload.varint(0)  // application state: no entries
        payload.varint(nodes)
        for node in 1...nodes {
            payload.varint(node - 1)  // parent
            payload.varint(0)  // identifier "a"
        }
        payload.varint(records)
        for _ in 0..<records {
            payload.varint(nodes)  // node
            payload.varint(1)  // class "C"
            payload.varint(0)  // no restoration class
            payload.varint(0)  // no relationships
            payload.varint(0)  // no state
            payload.varint(0)  // no views
        }
        payload.varint(records)
        for _ in 0..<records {
            payload.varint(nodes)  // node
            payload.varint(0)  // no restoration class
            payload.varint(0)  // no state
        }
        return sealed(payload.bytes, format: 3)
    }

    /// The sample archive in `format` (1: written by hand, as builds of format 1 wrote it).
    static func sample(format: UInt16) throws -> [UInt8] {
        var archive = sampleArchive()
        if format < 3 {
            archive.objects = format == 2 ? [ArchivedObject(path: ["Tabs", "Q"], restorationClassName: "A.Q", state: ["t": .string("x")])] : []
            if format == 1 {
                for index in archive.controllers.indices { archive.controllers[index].views = [] }
                return formatOne(archive)
            }
            return try ArchiveCodec.encode(archive, formatVersion: 2)
        }
        archive.objects = [ArchivedObject(path: ["Tabs", "Q"], restorationClassName: "A.Q", state: ["t": .string("x")])]
        return try ArchiveCodec.encode(archive)
    }

    /// Format 1: format 2 without views and objects.
    private static func formatOne(_ archive: RestorationArchive) -> [UInt8] {
        var payload = Payload()
        payload.u64(archive.header.generation)
        payload.u64(archive.header.timestamp)
        payload.string(archive.header.buildVersion)
        payload.state(archive.applicationState)
        payload.u32(archive.controllers.count)
        for controller in archive.controllers {
            payload.u32(controller.path.count)
            for identifier in controller.path { payload.string(identifier) }
            payload.string(controller.className)
            if let name = controller.restorationClassName {
                payload.bytes.append(1)
                payload.string(name)
            } else {
                payload.bytes.append(0)
            }
            payload.u32(controller.relationships.count)
            for relationship in controller.relationships {
                payload.bytes.append(relationship.kind.rawValue)
                payload.string(relationship.identifier)
            }
            payload.state(controller.state)
        }
        return sealed(payload.bytes, format: 1)
    }

    private static func sealed(_ payload: [UInt8], format: UInt16) -> [UInt8] {
        resealed(ArchiveCodec.magic + [UInt8(format), 0, 0, 0] + [UInt8](repeating: 0, count: 8) + payload)
    }

    private struct Payload {
        var bytes: [UInt8] = []

        mutating func varint(_ value: Int) {
            var value = UInt64(value)
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        mutating func u32(_ value: Int) {
            for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }

        mutating func u64(_ value: UInt64) {
            for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
        }

        mutating func shortString(_ text: String) {
            varint(text.utf8.count)
            bytes += Array(text.utf8)
        }

        mutating func string(_ text: String) {
            u32(text.utf8.count)
            bytes += Array(text.utf8)
        }

        /// Format 1's state: a count, then key, tag and value, keys sorted.
        mutating func state(_ state: [String: StateValue]) {
            u32(state.count)
            for (key, value) in state.sorted(by: { $0.key < $1.key }) {
                string(key)
                switch value {
                case .int(let number):
                    bytes.append(1)
                    u64(UInt64(bitPattern: number))
                case .double(let number):
                    bytes.append(2)
                    u64(number.bitPattern)
                case .bool(let flag): bytes += [3, flag ? 1 : 0]
                case .string(let text):
                    bytes.append(4)
                    string(text)
                case .strings(let list):
                    bytes.append(5)
                    u32(list.count)
                    for text in list { string(text) }
                case .bytes(let raw):
                    bytes.append(6)
                    u32(raw.count)
                    bytes += raw
                }
            }
        }
    }
}
