/// Totals over a set of incidents, as the end of the timeline prints them.
public struct TimelineSummary: Sendable, Equatable, Codable {
    /// How many permission changes were seen.
    public var incidents: Int
    /// How many of them killed the app.
    public var kills: Int
    /// How many relaunches restored saved state.
    public var restores: Int
    /// Discards of saved state, by reason.
    public var discardsByReason: [String: Int]
    /// Relaunch times (process exit to READY), in µs, in incident order.
    public var relaunchUSec: [UInt64]

    /// The median relaunch time in µs, if any relaunch was seen.
    public var relaunchMedianUSec: UInt64? { Self.percentile(50, of: relaunchUSec) }
    /// The 95th percentile relaunch time in µs, if any relaunch was seen.
    public var relaunchP95USec: UInt64? { Self.percentile(95, of: relaunchUSec) }

    /// Sums up `incidents`.
    public init(_ incidents: [Incident]) {
        self.incidents = incidents.count
        self.kills = incidents.filter { $0.events.contains { $0.kind == .killSent } }.count
        self.restores = incidents.filter { $0.launchOutcome == "restored" }.count
        var discards: [String: Int] = [:]
        for reason in incidents.flatMap(\.discardReasons) {
            discards[reason, default: 0] += 1
        }
        self.discardsByReason = discards
        self.relaunchUSec = incidents.compactMap(\.relaunchUSec)
    }

    /// The nearest-rank percentile `p` (0–100) of `values`, or nil when empty.
    public static func percentile(_ p: Int, of values: [UInt64]) -> UInt64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((Double(p) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
