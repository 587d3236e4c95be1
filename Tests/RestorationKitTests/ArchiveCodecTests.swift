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
        #expect(error.map(fault.matches) == true, "got \(String(describing: error))")
        #expect(error?.discardReason == fault.reason)
        #expect(error?.description.contains(fault.reason.rawValue) == true)
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
        guard case .tooLarge(let byteCount, let limit)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(byteCount > 100 && limit == 100)
    }

    @Test("random mutations and truncations never crash: each decodes or throws a typed error")
    func fuzz() throws {
        let original = try sampleBytes()
        var random = SplitMix64(seed: 0x5EED)
        var outcomes = (decoded: 0, refused: 0)
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
            // Half the rounds fix length and checksum so that the payload parser itself is exercised.
            if round % 2 == 1 { bytes = resealed(bytes) }
            do {
                _ = try ArchiveCodec.decode(bytes)
                outcomes.decoded += 1
            } catch {
                outcomes.refused += 1
            }
        }
        #expect(outcomes.refused > 3000)
        #expect(outcomes.decoded + outcomes.refused == 6000)
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
        case .unsupportedVersion: bytes[4] = 2
        case .badChecksum: bytes[bytes.count - 3] ^= 0x10
        case .truncatedPrefix: bytes.removeLast(bytes.count - 10)
        case .truncatedPayload: bytes.removeLast(5)
        case .empty: bytes = []
        case .trailingBytes: bytes.append(0)
        case .malformedTag:
            // The first state value's tag, after the build string and the app state's entry count and key.
            let tagOffset = ArchiveCodec.prefixSize + 16 + 4 + 1 + 4 + 4 + StateCoder.buildVersionKey.utf8.count
            bytes[tagOffset] = 99
            bytes = resealed(bytes)
        case .buildMismatch: return (bytes, "2", .default)
        case .tooLarge: return (bytes, nil, ArchiveLimits(soft: 10, hard: 100))
        }
        return (bytes, nil, .default)
    }

    func matches(_ error: ArchiveError) -> Bool {
        switch (self, error) {
        case (.badMagic, .badMagic), (.unsupportedVersion, .unsupportedVersion), (.badChecksum, .badChecksum),
            (.truncatedPrefix, .truncated), (.truncatedPayload, .truncated), (.empty, .truncated),
            (.trailingBytes, .trailingBytes), (.malformedTag, .malformed), (.buildMismatch, .buildMismatch),
            (.tooLarge, .tooLarge):
            true
        default: false
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
