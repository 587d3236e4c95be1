import RestorationKit
import Testing

/// The binary format: round trip, and every way reading refuses a bad archive.
@Suite("Archive format")
struct ArchiveCodecTests {
    @Test("CRC-32 matches the standard check value")
    func crcCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let split = CRC32.checksum(Array("6789".utf8), continuing: CRC32.checksum(Array("12345".utf8)))
        #expect(split == 0xCBF4_3926)
    }

    @Test("an archive decodes to what was encoded, and encodes the same way every time")
    func roundTrip() throws {
        let bytes = try sampleBytes(generation: 9)
        let decoded = try ArchiveCodec.decode(bytes, expectedBuild: "1")
        #expect(decoded.archive == sampleArchive(generation: 9))
        #expect(decoded.byteCount == bytes.count)
        #expect(decoded.warning == nil)
        #expect(try sampleBytes(generation: 9) == bytes)
        #expect(Array(bytes.prefix(4)) == Array("RLRA".utf8))
    }

    @Test("each fault is a typed error mapped to its contract reason", arguments: [
        Fault.badMagic, .unsupportedVersion, .badChecksum, .truncatedPrefix, .truncatedPayload, .empty,
        .trailingBytes, .malformedTag, .buildMismatch, .tooLarge,
    ])
    func faults(_ fault: Fault) throws {
        let (bytes, expectedBuild, limits) = try fault.make()
        let error = #expect(throws: ArchiveError.self) {
            try ArchiveCodec.decode(bytes, expectedBuild: expectedBuild, limits: limits)
        }
        #expect(error?.code == fault.code, "got \(String(describing: error))")
        #expect(error?.discardReason == fault.reason)
        #expect(error?.description.contains(fault.reason.rawValue) == true)
    }

    @Test("bytes after the payload are refused with their count")
    func trailingByteCount() throws {
        let bytes = try sampleBytes()
        for extra in [1, 3, 200] {
            #expect(throws: ArchiveError.trailingBytes(count: extra)) {
                try ArchiveCodec.decode(bytes + [UInt8](repeating: 0xA5, count: extra))
            }
        }
    }

    @Test("an archive of format 1 (no views, no objects) is still read")
    func formatOne() throws {
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 5, generation: 2), applicationState: ["k": .int(1)], controllers: [])
        var bytes = try ArchiveCodec.encode(archive, formatVersion: 2)
        #expect(Array(bytes.suffix(4)) == [0, 0, 0, 0], "format 2 ends with the object count")
        bytes.removeLast(4)
        bytes[4] = 1
        let decoded = try ArchiveCodec.decode(resealed(bytes)).archive
        #expect(decoded.header.formatVersion == 1)
        #expect(decoded.applicationState == ["k": .int(1)] && decoded.controllers.isEmpty && decoded.objects.isEmpty)
        #expect(throws: ArchiveError.self, "format 2 must have the object count") {
            var two = bytes
            two[4] = 2
            _ = try ArchiveCodec.decode(resealed(two))
        }
    }

    @Test("over the soft limit an archive is read with a warning")
    func softLimit() throws {
        let bytes = try sampleBytes()
        let decoded = try ArchiveCodec.decode(bytes, limits: ArchiveLimits(soft: 10, hard: 10_000))
        #expect(decoded.warning?.contains("soft limit") == true)
    }

    @Test("encoding over the hard limit is refused")
    func encodeTooLarge() {
        let error = #expect(throws: ArchiveError.self) {
            _ = try ArchiveCodec.encode(sampleArchive(), limits: ArchiveLimits(soft: 50, hard: 100))
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.description.contains("over the hard limit of 100 bytes") == true)
    }

    @Test("random damage: unsealed it is always caught, resealed it decodes to a stable archive or a parse error")
    func fuzz() throws {
        let original = try sampleBytes()
        var random = SplitMix64(seed: 0x5EED)
        var unsealedDecoded = 0
        var resealedDecoded = 0
        var resealedCodes: [ArchiveError.Code: Int] = [:]
        for round in 0..<6000 {
            var bytes = original
            switch random.next(below: 4) {
            case 0:
                for _ in 0...random.next(below: 4) { bytes[random.next(below: bytes.count)] ^= UInt8(1 + random.next(below: 255)) }
            case 1: bytes.removeLast(1 + random.next(below: bytes.count))
            case 2: bytes.insert(UInt8(random.next(below: 256)), at: random.next(below: bytes.count + 1))
            default:
                bytes.replaceSubrange(
                    random.next(below: bytes.count)..<bytes.count, with: (0..<random.next(below: 40)).map { _ in UInt8(random.next(below: 256)) })
            }
            guard bytes != original else { continue }
            // Half the rounds fix length and checksum so that the payload parser itself is exercised.
            let reseal = round % 2 == 1
            if reseal { bytes = resealed(bytes) }
            do {
                let archive = try ArchiveCodec.decode(bytes).archive
                if reseal { resealedDecoded += 1 } else { unsealedDecoded += 1 }
                // Whatever decodes is a well-formed archive: it encodes and decodes to itself.
                #expect(try ArchiveCodec.decode(try ArchiveCodec.encode(archive)).archive == archive, "round \(round)")
            } catch {
                if reseal { resealedCodes[error.code, default: 0] += 1 }
            }
        }
        #expect(unsealedDecoded == 0, "the checksum and length catch every damage that was not resealed")
        #expect(resealedDecoded > 50, "resealed damage inside strings still decodes")
        #expect(resealedCodes[.badChecksum] == nil, "a resealed archive's checksum is right")
        #expect((resealedCodes[.malformed] ?? 0) > 2000, "the payload parser refuses most resealed damage: \(resealedCodes)")
        #expect(resealedCodes[.badMagic] != nil && resealedCodes[.unsupportedVersion] != nil && resealedCodes[.truncated] != nil)
    }
}

/// One way an archive can be bad.
enum Fault: String, CaseIterable, CustomTestStringConvertible {
    case badMagic, unsupportedVersion, badChecksum, truncatedPrefix, truncatedPayload, empty
    case trailingBytes, malformedTag, buildMismatch, tooLarge

    var testDescription: String { rawValue }

    var reason: DiscardReason {
        switch self {
        case .unsupportedVersion: .unsupportedFormat
        case .buildMismatch: .buildMismatch
        case .tooLarge: .tooLarge
        default: .corrupt
        }
    }

    func make() throws -> (bytes: [UInt8], expectedBuild: String?, limits: ArchiveLimits) {
        var bytes = try sampleBytes()
        switch self {
        case .badMagic: bytes[0] = UInt8(ascii: "X")
        case .unsupportedVersion: bytes[4] = 9
        case .badChecksum: bytes[bytes.count - 3] ^= 0x10
        case .truncatedPrefix: bytes.removeLast(bytes.count - 10)
        case .truncatedPayload: bytes.removeLast(5)
        case .empty: bytes = []
        case .trailingBytes: bytes.append(0)
        case .malformedTag:
            // The first state value's tag: after the build string, the predefined string count, the
            // string table, and the app state's entry count and key index (every length, count and
            // index here is one byte).
            var offset = ArchiveCodec.prefixSize + 16
            offset += 1 + Int(bytes[offset])
            offset += 1
            let strings = Int(bytes[offset])
            offset += 1
            for _ in 0..<strings { offset += 1 + Int(bytes[offset]) }
            bytes[offset + 2] = 99
            bytes = resealed(bytes)
        case .buildMismatch: return (bytes, "2", .default)
        case .tooLarge: return (bytes, nil, ArchiveLimits(soft: 10, hard: 100))
        }
        return (bytes, nil, .default)
    }

    /// The code the fault must be reported with.
    var code: ArchiveError.Code {
        switch self {
        case .badMagic: .badMagic
        case .unsupportedVersion: .unsupportedVersion
        case .badChecksum: .badChecksum
        case .truncatedPrefix, .truncatedPayload, .empty: .truncated
        case .trailingBytes: .trailingBytes
        case .malformedTag: .malformed
        case .buildMismatch: .buildMismatch
        case .tooLarge: .tooLarge
        }
    }
}

/// A small deterministic random number generator, so that a failing fuzz round can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
