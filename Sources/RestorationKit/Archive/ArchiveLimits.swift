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
