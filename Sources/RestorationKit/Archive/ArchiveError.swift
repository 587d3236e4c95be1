/// Why an archive could not be read (or written): each case names the fault and what to do.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first four bytes are not the archive magic `RLRA`.
    case badMagic(found: [UInt8])
    /// The format version is not one this build reads.
    case unsupportedVersion(found: UInt16, supported: UInt16)
    /// The payload's CRC-32 does not match the one in the header.
    case badChecksum(expected: UInt32, actual: UInt32)
    /// The bytes end before the archive does.
    case truncated(needed: Int, available: Int)
    /// There are bytes after the end of the archive.
    case trailingBytes(count: Int)
    /// The checksum matched but the payload does not parse (a writer bug or a forged file).
    case malformed(offset: Int, detail: String)
    /// The archive was written by another build.
    case buildMismatch(archived: String, current: String)
    /// The archive is over the hard size limit.
    case tooLarge(byteCount: Int, limit: Int)

    /// The contract's REASON for discarding an archive that failed this way.
    public var discardReason: DiscardReason {
        switch self {
        case .badMagic, .badChecksum, .truncated, .trailingBytes, .malformed: .corrupt
        case .unsupportedVersion: .unsupportedFormat
        case .buildMismatch: .buildMismatch
        case .tooLarge: .tooLarge
        }
    }

    /// What went wrong and what to do, in one line.
    public var description: String {
        let what: String
        switch self {
        case .badMagic(let found):
            let hex = found.map { String($0, radix: 16) }.joined(separator: " ")
            what = "not a restoration archive (magic is [\(hex)], expected \"RLRA\")"
        case .unsupportedVersion(let found, let supported):
            what = "format version \(found) is not supported (this build reads version \(supported))"
        case .badChecksum(let expected, let actual):
            what = "checksum mismatch (header says \(hex(expected)), payload has \(hex(actual)))"
        case .truncated(let needed, let available):
            what = "truncated (needs \(needed) bytes, has \(available))"
        case .trailingBytes(let count):
            what = "\(count) unexpected bytes after the end of the archive"
        case .malformed(let offset, let detail):
            what = "malformed payload at byte \(offset): \(detail)"
        case .buildMismatch(let archived, let current):
            what = "written by build \(archived), this is build \(current)"
        case .tooLarge(let byteCount, let limit):
            what = "\(byteCount) bytes is over the hard limit of \(limit) bytes"
        }
        return "restoration archive \(what); it is discarded as '\(discardReason)' and the app launches fresh"
    }

    private func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
}

/// Why saved state was thrown away instead of restored, as CONTRACT.md names the journal's REASON.
public enum DiscardReason: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The archive was written by another build of the app.
    case buildMismatch = "build-mismatch"
    /// The last launch crashed while restoring (the restoring mark was still there).
    case crashedDuringRestore = "crashed-during-restore"
    /// The user force-quit the app, which discards its saved state.
    case forceQuit = "force-quit"
    /// The archive is damaged: bad magic, bad checksum, truncated or malformed.
    case corrupt
    /// The archive's format version is one this build cannot read.
    case unsupportedFormat = "unsupported-format"
    /// The archive is over the hard size limit.
    case tooLarge = "too-large"

    /// The contract's REASON string.
    public var description: String { rawValue }

    /// How far reading got before it failed; among invalid candidates the furthest one names the reason.
    var readingProgress: Int {
        switch self {
        case .buildMismatch: 4
        case .unsupportedFormat: 3
        case .tooLarge: 2
        case .corrupt: 1
        case .crashedDuringRestore, .forceQuit: 0
        }
    }
}
