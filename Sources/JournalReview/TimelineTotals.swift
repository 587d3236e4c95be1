import RelaunchContract

/// Totals over one group of incidents (one host's, or one app's across hosts), as the summary's
/// per-host and per-app tables show them.
package struct TimelineTotals: Sendable, Equatable, Codable {
    /// How many permission changes were seen.
    package var incidents = 0
    /// How many of them killed the app.
    package var kills = 0
    /// How many relaunches restored saved state.
    package var restores = 0
    /// Discards of saved state, by reason.
    package var discardsByReason: [String: Int] = [:]
    /// Relaunch times (process exit to READY), in µs, in incident order.
    package var relaunchUSec: [UInt64] = []
    /// The relaunched apps' scene sessions by how they came back (`restored`, `discarded`, `fresh`).
    package var scenesByOutcome: [String: Int] = [:]
    /// The relaunched apps' scene sessions whose own saved state was discarded, by REASON.
    package var sceneDiscardsByReason: [String: Int] = [:]

    /// No incidents yet.
    package init() {}

    /// How many discards of saved state, for any reason.
    package var discards: Int { discardsByReason.values.reduce(0, +) }
    /// The median relaunch time in µs, if any relaunch was seen.
    package var relaunchMedianUSec: UInt64? { percentile(0.5, of: relaunchUSec) }
    /// The 95th percentile relaunch time in µs, if any relaunch was seen.
    package var relaunchP95USec: UInt64? { percentile(0.95, of: relaunchUSec) }

    /// Counts one more incident.
    package mutating func add(_ incident: Incident) {
        incidents += 1
        if incident.events.contains(where: { $0.kind == .killSent }) { kills += 1 }
        if incident.launchOutcome == "restored" { restores += 1 }
        for reason in incident.discardReasons {
            discardsByReason[reason, default: 0] += 1
        }
        if let relaunch = incident.relaunchUSec { relaunchUSec.append(relaunch) }
        for scene in incident.scenes {
            scenesByOutcome[scene["SCENE_OUTCOME"], default: 0] += 1
            if scene["SCENE_OUTCOME"] == "discarded" { sceneDiscardsByReason[scene["REASON"], default: 0] += 1 }
        }
    }

    /// Whether `self` is worse than `other`, as the tables order their rows (worst first): more
    /// discards (each one lost what a user had open), then kills with no relaunch seen, then a slower
    /// relaunch p95, then more incidents.
    package func isWorse(than other: TimelineTotals) -> Bool {
        if discards != other.discards { return discards > other.discards }
        if unrelaunched != other.unrelaunched { return unrelaunched > other.unrelaunched }
        let (p95, otherP95) = (relaunchP95USec ?? 0, other.relaunchP95USec ?? 0)
        if p95 != otherP95 { return p95 > otherP95 }
        return incidents > other.incidents
    }

    /// Kills whose relaunch was not seen (the app did not come back, or the journal ends first).
    package var unrelaunched: Int { max(0, kills - relaunchUSec.count) }

    /// `groups` worst first (``isWorse(than:)``), ties by name.
    package static func worstFirst(_ groups: [String: TimelineTotals]) -> [(name: String, totals: TimelineTotals)] {
        groups.map { (name: $0.key, totals: $0.value) }.sorted {
            if $0.totals.isWorse(than: $1.totals) { return true }
            if $1.totals.isWorse(than: $0.totals) { return false }
            return $0.name < $1.name
        }
    }
}
