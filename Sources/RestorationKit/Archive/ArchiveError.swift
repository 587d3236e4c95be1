/// Why an archive could not be read (or written): a `code` to switch on and a description that
/// names the fault and what to do.
///
/// A struct over a private enum, as swift-service-lifecycle's `ServiceGroupError`: a new kind of
/// fault is a new static `Code`, which breaks no user's `switch`.
public struct ArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of fault, without its details.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String, Hashable, Sendable {
            case badMagic, unsupportedVersion, badChecksum, truncated, trailingBytes, malformed, buildMismatch, tooLarge
        }

        fileprivate let value: Value

        /// The first four bytes are not the archive magic `RLRA`.
        public static let badMagic = Code(value: .badMagic)
        /// The format version is not one this build reads.
        public static let unsupportedVersion = Code(value: .unsupportedVersion)
        /// The payload's CRC-32 does not match the one in the header.
        public static let badChecksum = Code(value: .badChecksum)
        /// The bytes end before the archive does.
        public static let truncated = Code(value: .truncated)
        /// There are bytes after the end of the archive.
        public static let trailingBytes = Code(value: .trailingBytes)
        /// The checksum matched but the payload does not parse (a writer bug or a forged file).
        public static let malformed = Code(value: .malformed)
        /// The archive was written by another build than the one the reader expected.
        public static let buildMismatch = Code(value: .buildMismatch)
        /// The archive is over the hard size limit.
        public static let tooLarge = Code(value: .tooLarge)

        /// The code's name (`"badChecksum"`).
        public var description: String { value.rawValue }
    }

    private enum Detail: Hashable, Sendable {
        case badMagic(found: [UInt8])
        case unsupportedVersion(found: UInt16, supported: UInt16)
        case badChecksum(expected: UInt32, actual: UInt32)
        case truncated(needed: Int, available: Int)
        case trailingBytes(count: Int)
        case malformed(offset: Int, detail: String)
        case buildMismatch(archived: String, current: String)
        case tooLarge(byteCount: Int, limit: Int)
    }

    private let detail: Detail

    private init(_ detail: Detail) { self.detail = detail }

    /// The first four bytes are `found`, not the archive magic `RLRA`.
    public static func badMagic(found: [UInt8]) -> ArchiveError { .init(.badMagic(found: found)) }
    /// The format version `found` is not the `supported` one.
    public static func unsupportedVersion(found: UInt16, supported: UInt16) -> ArchiveError {
        .init(.unsupportedVersion(found: found, supported: supported))
    }
    /// The header's checksum `expected` does not match the payload's `actual` one.
    public static func badChecksum(expected: UInt32, actual: UInt32) -> ArchiveError {
        .init(.badChecksum(expected: expected, actual: actual))
    }
    /// `needed` bytes were needed, only `available` are there.
    public static func truncated(needed: Int, available: Int) -> ArchiveError { .init(.truncated(needed: needed, available: available)) }
    /// `count` bytes follow the end of the archive.
    public static func trailingBytes(count: Int) -> ArchiveError { .init(.trailingBytes(count: count)) }
    /// The payload does not parse at byte `offset`.
    public static func malformed(offset: Int, detail: String) -> ArchiveError { .init(.malformed(offset: offset, detail: detail)) }
    /// Written by build `archived`, read by a reader that expected build `current`.
    public static func buildMismatch(archived: String, current: String) -> ArchiveError {
        .init(.buildMismatch(archived: archived, current: current))
    }
    /// `byteCount` bytes is over the hard `limit`.
    public static func tooLarge(byteCount: Int, limit: Int) -> ArchiveError { .init(.tooLarge(byteCount: byteCount, limit: limit)) }

    /// The kind of fault.
    public var code: Code {
        switch detail {
        case .badMagic: .badMagic
        case .unsupportedVersion: .unsupportedVersion
        case .badChecksum: .badChecksum
        case .truncated: .truncated
        case .trailingBytes: .trailingBytes
        case .malformed: .malformed
        case .buildMismatch: .buildMismatch
        case .tooLarge: .tooLarge
        }
    }

    /// The contract's REASON for discarding an archive that failed this way.
    public var discardReason: DiscardReason {
        switch detail {
        case .badMagic, .badChecksum, .truncated, .trailingBytes, .malformed: .corrupt
        case .unsupportedVersion: .unsupportedFormat
        case .buildMismatch: .buildMismatch
        case .tooLarge: .tooLarge
        }
    }

    /// What went wrong and what to do, in one line.
    public var description: String {
        let what: String
        switch detail {
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
