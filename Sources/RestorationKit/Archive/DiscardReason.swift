/// Why saved state was thrown away instead of restored, as CONTRACT.md names the journal's REASON.
///
/// A struct with named values rather than an enum, so that a new reason breaks no user's `switch`
/// (switch on it with a `default`).
public struct DiscardReason: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The contract's REASON string.
    public let rawValue: String

    /// The reason named `rawValue`, or nil when it is not one of `allCases`.
    public init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(_ rawValue: String) { self.rawValue = rawValue }

    /// The archive was written by another build and the app delegate declined it for that.
    public static let buildMismatch = DiscardReason("build-mismatch")
    /// The app delegate's `shouldRestoreApplicationState` declined an archive of the running build.
    public static let declined = DiscardReason("declined")
    /// The last launch crashed while restoring (the restoring mark was still there).
    public static let crashedDuringRestore = DiscardReason("crashed-during-restore")
    /// The user force-quit the app, which discards its saved state.
    public static let forceQuit = DiscardReason("force-quit")
    /// The archive is damaged: bad magic, bad checksum, truncated or malformed.
    public static let corrupt = DiscardReason("corrupt")
    /// The archive's format version is one this build cannot read.
    public static let unsupportedFormat = DiscardReason("unsupported-format")
    /// The archive is over the hard size limit.
    public static let tooLarge = DiscardReason("too-large")

    /// Every reason this build knows.
    public static let allCases: [DiscardReason] = [
        buildMismatch, declined, crashedDuringRestore, forceQuit, corrupt, unsupportedFormat, tooLarge,
    ]

    /// The contract's REASON string.
    public var description: String { rawValue }

    /// How far reading got before it failed; among invalid candidates the furthest one names the reason.
    var readingProgress: Int {
        switch self {
        case .unsupportedFormat: 3
        case .tooLarge: 2
        case .corrupt: 1
        default: 0
        }
    }
}
