import RelaunchContract

/// Draws incidents as text for people and as JSON for scripts.
///
/// Every field in the text came from the journal (a remote host's too): each line that holds one is
/// escaped as a whole (``TerminalText``), a table's names before they are padded.
package enum TimelineRenderer {
    /// The timeline as text: one block per incident (naming its host when the incidents are of more
    /// than one), then the summary line, the per-host and per-app tables of a fleet, and what was left out.
    package static func text(_ incidents: [Incident], summary: TimelineSummary) -> String {
        var out = ""
        let showHost = summary.hostCount > 1
        for (number, incident) in incidents.enumerated() {
            out += text(incident, number: number + 1, showHost: showHost)
        }
        out += summaryLine(summary) + "\n"
        out += fleetTables(summary)
        if let ignored = ignoredLine(summary) { out += ignored + "\n" }
        return out
    }

    /// One incident's block, numbered from 1: its header (with its host when `showHost`), a line per
    /// step, the relaunch, a blank line.
    package static func text(_ incident: Incident, number: Int, showHost: Bool = false) -> String {
        var out = TerminalText.escaped(header(incident, number: number, showHost: showHost)) + "\n"
        for event in incident.events {
            out += "  " + pad("+" + seconds(event.sinceChangeUSec), 10) + pad(label(event.kind), 22)
            out += TerminalText.escaped(describe(event)) + "\n"
        }
        if let relaunch = incident.relaunchUSec {
            out += "  relaunch: \(milliseconds(relaunch)) from exit to ready"
            out += ", outcome \(TerminalText.escaped(incident.launchOutcome ?? "unknown"))\n"
        } else if incident.killDecided {
            out += "  (no relaunch seen yet)\n"
        }
        return out + "\n"
    }

    /// The one-line summary.
    package static func summaryLine(_ summary: TimelineSummary) -> String {
        var line = "summary: \(count(summary.incidents, "incident")), \(count(summary.kills, "kill")), "
        line += "\(count(summary.restores, "restore"))"
        let discards = summary.discardsByReason.values.reduce(0, +)
        line += ", \(count(discards, "discard"))"
        if discards > 0 {
            let reasons = summary.discardsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            line += " (" + reasons.joined(separator: ", ") + ")"
        }
        if let median = summary.relaunchMedianUSec, let p95 = summary.relaunchP95USec {
            line += "; relaunch median \(milliseconds(median)), p95 \(milliseconds(p95))"
        }
        if let scenes = scenesPhrase(summary.all) { line += "; scene sessions: " + scenes }
        return TerminalText.escaped(line)
    }

    /// `2 restored, 1 discarded (corrupt 1), 1 fresh`, or nil when no relaunch logged scene sessions.
    static func scenesPhrase(_ totals: TimelineTotals) -> String? {
        guard !totals.scenesByOutcome.isEmpty else { return nil }
        return ["restored", "discarded", "fresh"].compactMap { outcome -> String? in
            guard let count = totals.scenesByOutcome[outcome] else { return nil }
            guard outcome == "discarded", !totals.sceneDiscardsByReason.isEmpty else { return "\(count) \(outcome)" }
            let reasons = totals.sceneDiscardsByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return "\(count) \(outcome) (" + reasons.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }

    /// The line after the summary that says how many entries were left out and why, or nil when
    /// none were: `ignored 3 entries: 2 permission entries not from permissiond.service, 1 unit
    /// entry not from PID 1`.
    package static func ignoredLine(_ summary: TimelineSummary) -> String? {
        let total = summary.ignoredEntries
        guard total > 0 else { return nil }
        let reasons = summary.ignoredByReason.compactMap { key, count in
            JournalTrust.Reason(rawValue: key).map { ($0, count) }
        }.sorted { $0.0 < $1.0 }
        return "ignored \(total) \(total == 1 ? "entry" : "entries"): "
            + reasons.map { $0.0.phrase(count: $0.1) }.joined(separator: ", ")
    }

    private static func header(_ incident: Incident, number: Int, showHost: Bool) -> String {
        var line = "incident \(number)  \(Timestamp.iso8601(incident.changedAtUSec))  "
        if showHost {
            line += "host \(incident.host.isEmpty ? incident.machineID : incident.host)  "
        }
        line += "\(incident.app)  "
        line += "\(incident.permission) \(incident.oldState) → \(incident.newState)  "
        line += incident.reason.map { "(\($0))" } ?? "(uid \(incident.callerUID))"
        if !incident.killDecided { line += "  no kill" }
        return line
    }

    private static func label(_ kind: TimelineEvent.Kind) -> String {
        switch kind {
        case .permissionChanged: "permission changed"
        case .killSent: "kill sent"
        case .processExited: "process died"
        case .restartScheduled: "restart scheduled"
        case .processStarted: "new process started"
        case .tookOver: "standby took over"
        case .discarded: "saved state discarded"
        case .controllerRestored: "restored"
        case .restorationFinished: "restoration finished"
        case .sceneRestored: "scene"
        case .launched: "app launched"
        case .ready: "ready"
        case .failed: "unit failed"
        }
    }

    private static func describe(_ event: TimelineEvent) -> String {
        switch event.kind {
        case .permissionChanged:
            let kill = event["KILL"] == "true" ? "kill" : "no kill"
            return "\(event["PERMISSION"]): \(event["OLD_STATE"]) → \(event["NEW_STATE"]), uid \(event["CALLER_UID"]), \(kill)"
        case .killSent:
            return "SIG\(event["SIGNAL"]) to \(event["UNIT"])"
        case .processExited where event["TAKEN_OVER_PID"] != "" && event["TAKEOVER_KILL_SENT_USEC"] != "":
            return "pid \(event["TAKEN_OVER_PID"]) SIGKILLed by the standby on permissiond's request, seen gone by it"
        case .processExited where event["TAKEN_OVER_PID"] != "":
            return "pid \(event["TAKEN_OVER_PID"]) gone without a word (SIGKILL), seen by the standby"
        case .processExited:
            guard event["EXIT_CODE"] == "killed" || event["EXIT_CODE"] == "dumped" else {
                return "\(event["EXIT_CODE"]) with status \(event["EXIT_STATUS"])"
            }
            let names = ["1": "HUP", "2": "INT", "6": "ABRT", "9": "KILL", "11": "SEGV", "15": "TERM"]
            let signal = event["EXIT_STATUS"]
            return "\(event["EXIT_CODE"]) by signal \(signal)" + (names[signal].map { " (SIG\($0))" } ?? "")
        case .restartScheduled:
            return "restart counter \(event["N_RESTARTS"])"
        case .processStarted:
            return "pid \(event["_PID"])"
        case .tookOver:
            return "pid \(event["_PID"]) is the main process now, in place of pid \(event["TAKEN_OVER_PID"])"
        case .discarded:
            return "reason \(event["REASON"])"
        case .controllerRestored:
            return "\(event["RESTORATION_PATH"]) via \(event["RESTORED_VIA"])"
        case .restorationFinished:
            let presented = event["PRESENTED_PATH"].isEmpty ? "nothing presented" : "presented \(event["PRESENTED_PATH"])"
            return "\(event["RESTORED_COUNT"]) controllers, \(presented)"
        case .sceneRestored:
            var text = "\(event["SCENE_SESSION"]) \(event["SCENE_OUTCOME"])"
            if event["SCENE_OUTCOME"] == "discarded" { text += ", reason \(event["REASON"])" }
            if !event["ACTIVITY_TYPE"].isEmpty {
                text += ": \(event["ACTIVITY_TYPE"])"
            }
            return text
        case .launched:
            return "\(event["LAUNCH_OUTCOME"]), build \(event["BUILD_NUMBER"])"
        case .ready:
            return "READY=1 (\(event["MESSAGE"]))"
        case .failed:
            return "result \(event["UNIT_RESULT"])"
        }
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    static func seconds(_ usec: UInt64) -> String {
        let ms = usec / 1000
        let whole = ms / 1000
        let frac = ms % 1000
        return "\(whole)." + String(repeating: "0", count: 3 - String(frac).count) + "\(frac)s"
    }

    static func milliseconds(_ usec: UInt64) -> String {
        let tenths = (usec + 50) / 100
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
