import RelaunchContract

/// The timeline as data: what `relaunchctl journal --json` prints.
package struct TimelineReport: Sendable, Equatable, Encodable {
    /// Every incident, oldest first.
    package var incidents: [Incident]
    /// Totals over the incidents.
    package var summary: TimelineSummary

    /// Builds the report from journal records, of the entries `trust` believes.
    package init(records: [JournalRecord], trust: JournalTrust = JournalTrust()) {
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
        case ignoredEntries, ignoredByReason, byHost, byApp, sceneSessions
    }

    private enum SceneKeys: String, CodingKey {
        case byOutcome, discardsByReason
    }

    package func encode(to encoder: any Encoder) throws {
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
        try nested.encode(summary.byApp.mapValues { TimelineTotalsJSON($0, machineID: nil) }, forKey: .byApp)
        let labels = summary.hostLabels
        let byHost = Dictionary(uniqueKeysWithValues: summary.byMachine.map {
            (labels[$0.key]!, TimelineTotalsJSON($0.value, machineID: $0.key))
        })
        try nested.encode(byHost, forKey: .byHost)
        var scenes = nested.nestedContainer(keyedBy: SceneKeys.self, forKey: .sceneSessions)
        try scenes.encode(summary.all.scenesByOutcome, forKey: .byOutcome)
        try scenes.encode(summary.all.sceneDiscardsByReason, forKey: .discardsByReason)
    }

    /// The journal matches that select every entry the review needs: Relaunch's own message ids
    /// and systemd's unit entries.
    package static var messageIDs: [String] {
        MessageID.allCases.map(\.rawValue) + ManagerMessageID.allCases.map(\.rawValue)
    }
}

/// One entry of the summary's `byHost` or `byApp` as JSON: the totals and, for a host, its machine id.
struct TimelineTotalsJSON: Encodable {
    let totals: TimelineTotals
    let machineID: String?

    init(_ totals: TimelineTotals, machineID: String?) {
        self.totals = totals
        self.machineID = machineID
    }

    private enum CodingKeys: String, CodingKey {
        case incidents, kills, restores, discardsByReason, relaunchMedianUSec, relaunchP95USec, machineID
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(totals.incidents, forKey: .incidents)
        try container.encode(totals.kills, forKey: .kills)
        try container.encode(totals.restores, forKey: .restores)
        try container.encode(totals.discardsByReason, forKey: .discardsByReason)
        try container.encode(totals.relaunchMedianUSec, forKey: .relaunchMedianUSec)
        try container.encode(totals.relaunchP95USec, forKey: .relaunchP95USec)
        if let machineID { try container.encode(machineID, forKey: .machineID) }
    }
}
