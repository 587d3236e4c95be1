internal import FoundationEssentials

/// The system's wall clock.
public enum WallClock {
    /// Now, in microseconds since the Unix epoch.
    @Sendable public static func microseconds() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000))
    }

    private static let origin = ContinuousClock.now

    /// The time since the first use, on the continuous (monotonic) clock.
    @Sendable public static func uptime() -> Duration { ContinuousClock.now - origin }
}
