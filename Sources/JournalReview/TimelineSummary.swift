/// Totals over a set of incidents, as the end of the timeline prints them.
package struct TimelineSummary: Sendable, Equatable, Codable {
    /// The totals over every incident, of every host and app.
    package var all: TimelineTotals
    /// How many permission changes were seen.
    package var incidents: Int { all.incidents }
    /// How many of them killed the app.
    package var kills: Int { all.kills }
    /// How many relaunches restored saved state.
    package var restores: Int { all.restores }
    /// Discards of saved state, by reason.
    package var discardsByReason: [String: Int] { all.discardsByReason }
    /// Relaunch times (process exit to READY), in µs, in incident order.
    package var relaunchUSec: [UInt64] { all.relaunchUSec }
    /// Entries left out because journald's trusted fields show they are not from where their kind
    /// says (``JournalTrust``), by ``JournalTrust/Reason`` raw value.
    package var ignoredByReason: [String: Int]
    /// Totals of each host, by machine id (an empty string for entries without `_MACHINE_ID`).
    package var byMachine: [String: TimelineTotals]
    /// The hostname each machine's incidents show (the latest seen).
    package var hostnameOfMachine: [String: String]
    /// Totals of each app, across hosts.
    package var byApp: [String: TimelineTotals]
    /// Relaunch times in µs of each app on each machine (machine id, then app id), for the report's plot.
    package var relaunchUSecByMachineApp: [String: [String: [UInt64]]]

    /// How many entries were left out, for any reason.
    package var ignoredEntries: Int { ignoredByReason.values.reduce(0, +) }

    /// The median relaunch time in µs, if any relaunch was seen.
    package var relaunchMedianUSec: UInt64? { all.relaunchMedianUSec }
    /// The 95th percentile relaunch time in µs, if any relaunch was seen.
    package var relaunchP95USec: UInt64? { all.relaunchP95USec }

    /// Sums up `incidents`.
    package init(_ incidents: [Incident]) {
        self.init()
        for incident in incidents {
            add(incident)
        }
    }

    /// No incidents yet.
    package init() {
        all = TimelineTotals()
        ignoredByReason = [:]
        byMachine = [:]
        hostnameOfMachine = [:]
        byApp = [:]
        relaunchUSecByMachineApp = [:]
    }

    /// Counts entries left out, by reason.
    package mutating func addIgnored(_ counts: [JournalTrust.Reason: Int]) {
        for (reason, count) in counts where count > 0 {
            ignoredByReason[reason.rawValue, default: 0] += count
        }
    }

    /// Counts one more incident, the latest so far.
    package mutating func add(_ incident: Incident) {
        all.add(incident)
        if let relaunch = incident.relaunchUSec {
            relaunchUSecByMachineApp[incident.machineID, default: [:]][incident.app, default: []].append(relaunch)
        }
        byMachine[incident.machineID, default: TimelineTotals()].add(incident)
        byApp[incident.app, default: TimelineTotals()].add(incident)
        if !incident.host.isEmpty { hostnameOfMachine[incident.machineID] = incident.host }
    }

    /// How many hosts (machines) the incidents are of.
    package var hostCount: Int { byMachine.count }

    /// The name each machine goes by in the per-host table and `--json`'s `byHost`: its hostname when
    /// no other machine of the review has the same one, else `hostname (machine id)`; the machine id
    /// when it showed no hostname, `(unknown)` when neither.
    package var hostLabels: [String: String] {
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
    package var byHost: [String: TimelineTotals] {
        let labels = hostLabels
        return Dictionary(uniqueKeysWithValues: byMachine.map { (labels[$0.key]!, $0.value) })
    }
}
