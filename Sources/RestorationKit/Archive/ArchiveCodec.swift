/// The archive's binary format: pure functions from `RestorationArchive` to bytes and back.
///
/// Layout (integers little-endian, strings as a 32-bit length and UTF-8 bytes):
///
///     0   4  magic "RLRA"
///     4   2  format version (2; version 1 is still read)
///     6   2  flags (0)
///     8   4  payload length
///     12  4  CRC-32 of bytes 4..<12 followed by the payload
///     16  …  payload: generation u64, timestamp u64 (µs since the epoch), build version,
///            application state, controller count u32, controllers, then (version 2) object count
///            u32, objects
///
/// A state dictionary is a count and, sorted by key, key + tag + value; a controller is its path
/// (a count of strings), class, restoration class (flag + string), relationships (a count of
/// kind + identifier), state and (version 2) views (a count of identifier + class + state); an
/// object is its path, restoration class (flag + string) and state. The same archive always
/// encodes to the same bytes.
public enum ArchiveCodec {
    /// The four bytes every archive starts with.
    public static let magic: [UInt8] = Array("RLRA".utf8)
    /// The format version this build writes; it reads this one and every earlier one.
    public static let formatVersion: UInt16 = 2
    /// The size of the fixed prefix (magic, version, flags, length, checksum).
    public static let prefixSize = 16

    /// The bytes of `archive`.
    ///
    /// - Parameters:
    ///   - archive: What to encode; its header's format version is ignored (this build writes `formatVersion`).
    ///   - limits: Over `limits.hard` the archive is refused.
    /// - Returns: The archive's bytes.
    /// - Throws: `ArchiveError.tooLarge` when the bytes would be over the hard limit.
    public static func encode(_ archive: RestorationArchive, limits: ArchiveLimits = .default) throws(ArchiveError) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(raw: magic)
        writer.append(formatVersion)
        writer.append(UInt16(0))
        writer.append(UInt32(0))  // payload length, patched below
        writer.append(UInt32(0))  // checksum, patched below
        writer.append(archive.header.generation)
        writer.append(archive.header.timestamp)
        writer.append(archive.header.buildVersion)
        ArchiveFields.write(archive.applicationState, to: &writer)
        writer.append(UInt32(archive.controllers.count))
        for controller in archive.controllers { ArchiveFields.write(controller, to: &writer) }
        writer.append(UInt32(archive.objects.count))
        for object in archive.objects { ArchiveFields.write(object, to: &writer) }

        let count = writer.bytes.count
        guard count <= limits.hard else { throw .tooLarge(byteCount: count, limit: limits.hard) }
        writer.patch(UInt32(count - prefixSize), at: 8)
        writer.patch(checksum(of: writer.bytes), at: 12)
        return writer.bytes
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
        guard bytes.count <= limits.hard else { throw .tooLarge(byteCount: bytes.count, limit: limits.hard) }
        guard bytes.count >= magic.count else { throw .truncated(needed: prefixSize, available: bytes.count) }
        guard Array(bytes[0..<magic.count]) == magic else { throw .badMagic(found: Array(bytes[0..<magic.count])) }
        guard bytes.count >= prefixSize else { throw .truncated(needed: prefixSize, available: bytes.count) }

        var prefix = ByteReader(bytes, offset: magic.count)
        let version = try prefix.readUInt16("format version")
        guard version >= 1, version <= formatVersion else { throw .unsupportedVersion(found: version, supported: formatVersion) }
        _ = try prefix.readUInt16("flags")
        let payloadLength = Int(try prefix.readUInt32("payload length"))
        let storedChecksum = try prefix.readUInt32("checksum")
        let total = prefixSize + payloadLength
        guard bytes.count >= total else { throw .truncated(needed: total, available: bytes.count) }
        guard bytes.count == total else { throw .trailingBytes(count: bytes.count - total) }
        let actual = checksum(of: bytes)
        guard actual == storedChecksum else { throw .badChecksum(expected: storedChecksum, actual: actual) }

        var reader = ByteReader(bytes, offset: prefixSize)
        let archive = try ArchiveFields.readPayload(from: &reader, formatVersion: version)
        guard reader.isAtEnd else { throw reader.fault("\(reader.remaining) bytes left after the last controller") }
        if let expectedBuild, expectedBuild != archive.header.buildVersion {
            throw .buildMismatch(archived: archive.header.buildVersion, current: expectedBuild)
        }
        return DecodedArchive(archive: archive, byteCount: bytes.count, warning: limits.warning(byteCount: bytes.count))
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
/// Android advises keeping saved instance state under 50 KB; the hard limit stops a runaway archive
/// from slowing every launch.
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

    /// 50 KB soft, 1 MiB hard.
    public static let `default` = ArchiveLimits(soft: 50 * 1024, hard: 1024 * 1024)

    /// The warning for an archive of `byteCount` bytes, or nil when it is within the soft limit.
    func warning(byteCount: Int) -> String? {
        guard byteCount > soft else { return nil }
        return "restoration archive is \(byteCount) bytes, over the soft limit of \(soft) bytes: "
            + "save identifiers, not data, in encodeRestorableState"
    }
}
