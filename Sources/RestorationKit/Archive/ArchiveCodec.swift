/// The archive's binary format: pure functions from `RestorationArchive` to bytes and back.
///
/// Layout (integers little-endian):
///
///     0   4  magic "RLRA"
///     4   2  format version (3, or 4 when there are scene sessions; versions 1 and 2 are still read)
///     6   2  flags (0)
///     8   4  payload length
///     12  4  CRC-32 of bytes 4..<12 followed by the payload
///     16  …  payload (format 3: `ArchiveFormat3`; format 4: format 3's, then the scene sessions
///            (`ArchiveScenes`); formats 1 and 2: `ArchiveFormat2`)
///
/// Format 3 stores each path once, as a node (parent node, identifier) of a table, and each class
/// name, state key and identifier once, in a table of strings: bytes per controller no longer grow
/// with the depth of the hierarchy. Formats 1 and 2 stored every record's whole path and every
/// string in full (a chain of 1,000 presentations took 5.5 KB per controller). The same archive
/// always encodes to the same bytes.
public enum ArchiveCodec {
    /// The four bytes every archive starts with.
    public static let magic: [UInt8] = Array("RLRA".utf8)
    /// The format version this build writes for an archive without scene sessions (byte for byte
    /// what builds before scenes wrote); it reads this one, every earlier one and `sceneFormatVersion`.
    public static let formatVersion: UInt16 = 3
    /// The format version of an archive with scene sessions: format 3 followed by the sessions, each
    /// a record of its own that is discarded alone when it cannot be read.
    public static let sceneFormatVersion: UInt16 = ArchiveScenes.formatVersion
    /// The newest format version this build reads.
    static let newestReadableVersion: UInt16 = ArchiveScenes.formatVersion
    /// The format versions `encode(_:limits:formatVersion:)` can write: this one, and 2 for a build
    /// that cannot read 3 (what format 2 cannot hold, it cannot: format 2 holds everything 3 does).
    public static let writableFormatVersions: ClosedRange<UInt16> = 2...3
    /// The size of the fixed prefix (magic, version, flags, length, checksum).
    public static let prefixSize = 16

    /// The bytes of `archive`.
    ///
    /// - Parameters:
    ///   - archive: What to encode; its header's format version is ignored.
    ///   - limits: Over `limits.hard` the archive is refused.
    ///   - version: The format to write: `formatVersion` (the default), or 2 for an older build
    ///     (`writableFormatVersions`); any other is written as `formatVersion`. An archive with scene
    ///     sessions is always written in `sceneFormatVersion`, which alone can hold them.
    /// - Returns: The archive's bytes.
    /// - Throws: `ArchiveError.tooLarge` when the bytes would be over the hard limit.
    public static func encode(
        _ archive: RestorationArchive, limits: ArchiveLimits = .default, formatVersion version: UInt16 = formatVersion
    ) throws(ArchiveError) -> [UInt8] {
        let version = !archive.sceneSessions.isEmpty
            ? sceneFormatVersion : writableFormatVersions.contains(version) ? version : formatVersion
        var writer = ByteWriter(capacity: 256 + archive.controllers.count * 32)
        writer.append(raw: magic)
        writer.append(version)
        writer.append(UInt16(0))
        writer.append(UInt32(0))  // payload length, patched below
        writer.append(UInt32(0))  // checksum, patched below
        if version == 2 {
            ArchiveFormat2.writePayload(archive, to: &writer)
        } else {
            ArchiveFormat3.writePayload(archive, to: &writer)
            if version == sceneFormatVersion { ArchiveScenes.write(archive.sceneSessions, to: &writer) }
        }

        let count = writer.count
        guard count <= limits.hard else { throw .tooLarge(byteCount: count, limit: limits.hard) }
        writer.patch(UInt32(count - prefixSize), at: 8)
        var bytes = writer.bytes
        let sum = checksum(of: bytes)
        for index in 0..<4 { bytes[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index))) }
        return bytes
    }

    /// The archive in `bytes`, checked in this order: size, prefix, version, length, checksum, payload, build.
    ///
    /// - Parameters:
    ///   - bytes: A whole archive file.
    ///   - expectedBuild: When given, an archive written by another build is refused.
    ///   - limits: Over `limits.soft` the result carries a warning; over `limits.hard` it is refused.
    /// - Returns: The archive, its size and a size warning if any.
    /// - Throws: An `ArchiveError` naming the first fault found; `discardReason` maps it to CONTRACT.md.
    public static func decode(
        _ bytes: [UInt8], expectedBuild: String? = nil, limits: ArchiveLimits = .default
    ) throws(ArchiveError) -> DecodedArchive {
        var work = 0
        return try decode(bytes, expectedBuild: expectedBuild, limits: limits, work: &work)
    }

    /// `decode(_:expectedBuild:limits:)`, also counting the values the payload's decoder made (strings,
    /// records, entries, path nodes: see `ByteReader.charge(_:)`), so that tests can prove decoding
    /// linear in the archive's size; `work` is set also when decoding fails.
    package static func decode(
        _ bytes: [UInt8], expectedBuild: String? = nil, limits: ArchiveLimits = .default, work: inout Int
    ) throws(ArchiveError) -> DecodedArchive {
        work = 0
        guard bytes.count <= limits.hard else { throw .tooLarge(byteCount: bytes.count, limit: limits.hard) }
        guard bytes.count >= magic.count else { throw .truncated(needed: prefixSize, available: bytes.count) }
        guard bytes[0] == magic[0], bytes[1] == magic[1], bytes[2] == magic[2], bytes[3] == magic[3] else {
            throw .badMagic(found: Array(bytes[0..<magic.count]))
        }
        guard bytes.count >= prefixSize else { throw .truncated(needed: prefixSize, available: bytes.count) }

        let version = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
        guard version >= 1, version <= newestReadableVersion else {
            throw .unsupportedVersion(found: version, supported: newestReadableVersion)
        }
        let payloadLength = Int(UInt32(bytes[8]) | UInt32(bytes[9]) << 8 | UInt32(bytes[10]) << 16 | UInt32(bytes[11]) << 24)
        let storedChecksum = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        let total = prefixSize + payloadLength
        guard bytes.count >= total else { throw .truncated(needed: total, available: bytes.count) }
        guard bytes.count == total else { throw .trailingBytes(count: bytes.count - total) }
        let actual = checksum(of: bytes)
        guard actual == storedChecksum else { throw .badChecksum(expected: storedChecksum, actual: actual) }

        let archive = try ByteReader.read(bytes, from: prefixSize, work: &work) { (reader) throws(ArchiveError) in
            var archive = version >= 3
                ? try ArchiveFormat3.readPayload(from: &reader)
                : try ArchiveFormat2.readPayload(from: &reader, formatVersion: version)
            if version == sceneFormatVersion {
                archive.header.formatVersion = version
                archive.sceneSessions = try ArchiveScenes.read(from: &reader)
            }
            guard reader.isAtEnd else { throw reader.fault("\(reader.remaining) bytes left after the last controller") }
            return archive
        }
        if let expectedBuild, expectedBuild != archive.header.buildVersion {
            throw .buildMismatch(archived: archive.header.buildVersion, current: expectedBuild)
        }
        return DecodedArchive(archive: archive, byteCount: bytes.count, warning: limits.warning(byteCount: bytes.count))
    }

    /// The generation of the archive in `bytes`, read without decoding its payload: nil unless the
    /// size, prefix, version, length and checksum are right. Cheap (one CRC-32 pass) and cannot trap,
    /// for a launch that must not decode saved state but should still number the next one above it.
    public static func generation(of bytes: [UInt8], limits: ArchiveLimits = .default) -> UInt64? {
        guard bytes.count <= limits.hard, bytes.count >= prefixSize + 8, Array(bytes[0..<4]) == magic else { return nil }
        let version = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
        let payloadLength = Int(UInt32(bytes[8]) | UInt32(bytes[9]) << 8 | UInt32(bytes[10]) << 16 | UInt32(bytes[11]) << 24)
        let storedChecksum = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        guard (1...newestReadableVersion).contains(version), bytes.count == prefixSize + payloadLength,
            checksum(of: bytes) == storedChecksum
        else { return nil }
        // Every format starts its payload with the generation.
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[prefixSize + $1]) << (8 * UInt64($1)) }
    }

    /// The checksum the prefix stores: over version, flags and length, then the payload.
    static func checksum(of bytes: [UInt8]) -> UInt32 {
        CRC32.checksum(bytes[prefixSize...], continuing: CRC32.checksum(bytes[4..<12]))
    }
}

/// An archive read from bytes, with what the reader noticed.
public struct DecodedArchive: Equatable, Sendable {
    /// The archive.
    public var archive: RestorationArchive
    /// How many bytes it took.
    public var byteCount: Int
    /// A warning when it is over the soft size limit.
    public var warning: String?
}

/// Size limits for an archive: over `soft` it is written and read with a warning, over `hard` refused.
///
/// Android advises keeping saved instance state under 50 KB, hence the soft limit's warning; the hard
/// limit stops a runaway archive from slowing every launch. The default hard limit, 16 MiB, admits
/// 100k controllers of up to about 160 bytes each (format 3 takes 15–40 bytes for a controller with a
/// little state), restored in a fraction of a second; an app lowers it with its own `ArchiveLimits`.
public struct ArchiveLimits: Sendable, Equatable {
    /// Above this many bytes an archive is still used, with a warning.
    public var soft: Int
    /// Above this many bytes an archive is refused (`too-large`).
    public var hard: Int

    /// Limits with the given byte counts.
    public init(soft: Int, hard: Int) {
        self.soft = soft
        self.hard = hard
    }

    /// 50 KB soft, 16 MiB hard.
    public static let `default` = ArchiveLimits(soft: 50 * 1024, hard: 16 * 1024 * 1024)

    /// The warning for an archive of `byteCount` bytes, or nil when it is within the soft limit.
    func warning(byteCount: Int) -> String? {
        guard byteCount > soft else { return nil }
        return "restoration archive is \(byteCount) bytes, over the soft limit of \(soft) bytes: "
            + "save identifiers, not data, in encodeRestorableState"
    }
}
