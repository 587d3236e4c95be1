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
    /// Entries left out because journald's trusted fields show they are not from where their kind
    /// says (``JournalTrust``), by ``JournalTrust/Reason`` raw value.
    public var ignoredByReason: [String: Int]
    /// Totals of each host, by machine id (an empty string for entries without `_MACHINE_ID`).
    public var byMachine: [String: TimelineTotals]
    /// The hostname each machine's incidents show (the latest seen).
    public var hostnameOfMachine: [String: String]
    /// Totals of each app, across hosts.
    public var byApp: [String: TimelineTotals]
    /// Relaunch times in µs of each app on each machine (machine id, then app id), for the report's plot.
    public var relaunchUSecByMachineApp: [String: [String: [UInt64]]]

    /// How many entries were left out, for any reason.
    public var ignoredEntries: Int { ignoredByReason.values.reduce(0, +) }

    /// The median relaunch time in µs, if any relaunch was seen.
    public var relaunchMedianUSec: UInt64? { Self.percentile(50, of: relaunchUSec) }
    /// The 95th percentile relaunch time in µs, if any relaunch was seen.
    public var relaunchP95USec: UInt64? { Self.percentile(95, of: relaunchUSec) }

    /// Sums up `incidents`.
    public init(_ incidents: [Incident]) {
        self.init()
        for incident in incidents {
            add(incident)
        }
    }

    /// No incidents yet.
    public init() {
        incidents = 0
        kills = 0
        restores = 0
        discardsByReason = [:]
        relaunchUSec = []
        ignoredByReason = [:]
        byMachine = [:]
        hostnameOfMachine = [:]
        byApp = [:]
        relaunchUSecByMachineApp = [:]
    }

    /// Counts entries left out, by reason.
    public mutating func addIgnored(_ counts: [JournalTrust.Reason: Int]) {
        for (reason, count) in counts where count > 0 {
            ignoredByReason[reason.rawValue, default: 0] += count
        }
    }

    /// Counts one more incident, the latest so far.
    public mutating func add(_ incident: Incident) {
        incidents += 1
        if incident.events.contains(where: { $0.kind == .killSent }) { kills += 1 }
        if incident.launchOutcome == "restored" { restores += 1 }
        for reason in incident.discardReasons {
            discardsByReason[reason, default: 0] += 1
        }
        if let relaunch = incident.relaunchUSec {
            relaunchUSec.append(relaunch)
            relaunchUSecByMachineApp[incident.machineID, default: [:]][incident.app, default: []].append(relaunch)
        }
        byMachine[incident.machineID, default: TimelineTotals()].add(incident)
        byApp[incident.app, default: TimelineTotals()].add(incident)
        if !incident.host.isEmpty { hostnameOfMachine[incident.machineID] = incident.host }
    }

    /// How many hosts (machines) the incidents are of.
    public var hostCount: Int { byMachine.count }

    /// The name each machine goes by in the per-host table and `--json`'s `byHost`: its hostname when
    /// no other machine of the review has the same one, else `hostname (machine id)`; the machine id
    /// when it showed no hostname, `(unknown)` when neither.
    public var hostLabels: [String: String] {
        var machinesOfName: [String: Int] = [:]
        for machine in byMachine.keys {
            machinesOfName[hostnameOfMachine[machine] ?? "", default: 0] += 1
        }
        var labels: [String: String] = [:]
        for machine in byMachine.keys {
            let name = hostnameOfMachine[machine] ?? ""
            labels[machine] = name.isEmpty ? (machine.isEmpty ? "(unknown)" : machine)
                : machinesOfName[name] == 1 || machine.isEmpty ? name : "\(name) (\(machine))"
        }
        return labels
    }

    /// Each host's totals by its label (``hostLabels``).
    public var byHost: [String: TimelineTotals] {
        let labels = hostLabels
        return Dictionary(uniqueKeysWithValues: byMachine.map { (labels[$0.key]!, $0.value) })
    }

    /// The nearest-rank percentile `p` (0–100) of `values`, or nil when empty.
    public static func percentile(_ p: Int, of values: [UInt64]) -> UInt64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((Double(p) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
