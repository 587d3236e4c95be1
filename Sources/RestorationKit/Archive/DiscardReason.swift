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
