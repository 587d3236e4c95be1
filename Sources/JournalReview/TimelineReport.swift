import RelaunchContract

/// The timeline as data: what `relaunchctl journal --json` prints.
public struct TimelineReport: Sendable, Equatable, Encodable {
    /// Every incident, oldest first.
    public var incidents: [Incident]
    /// Totals over the incidents.
    public var summary: TimelineSummary

    /// Builds the report from journal records, of the entries `trust` believes.
    public init(records: [JournalRecord], trust: JournalTrust = JournalTrust()) {
        let (incidents, ignored) = TimelineBuilder.build(from: records, trust: trust)
        self.incidents = incidents
        self.summary = TimelineSummary(incidents)
        summary.addIgnored(ignored)
    }

    private enum CodingKeys: String, CodingKey {
        case incidents, summary
    }

    private enum SummaryKeys: String, CodingKey {
        case incidents, kills, restores, discardsByReason, relaunchUSec, relaunchMedianUSec, relaunchP95USec
        case ignoredEntries, ignoredByReason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(incidents, forKey: .incidents)
        var nested = container.nestedContainer(keyedBy: SummaryKeys.self, forKey: .summary)
        try nested.encode(summary.incidents, forKey: .incidents)
        try nested.encode(summary.kills, forKey: .kills)
        try nested.encode(summary.restores, forKey: .restores)
        try nested.encode(summary.discardsByReason, forKey: .discardsByReason)
        try nested.encode(summary.relaunchUSec, forKey: .relaunchUSec)
        try nested.encode(summary.relaunchMedianUSec, forKey: .relaunchMedianUSec)
        try nested.encode(summary.relaunchP95USec, forKey: .relaunchP95USec)
        try nested.encode(summary.ignoredEntries, forKey: .ignoredEntries)
        try nested.encode(summary.ignoredByReason, forKey: .ignoredByReason)
    }

    /// The journal matches that select every entry the review needs: Relaunch's own message ids
    /// and systemd's unit entries.
    public static var messageIDs: [String] {
        MessageID.allCases.map(\.rawValue) + ManagerMessageID.allCases.map(\.rawValue)
    }
}
