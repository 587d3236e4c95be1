import JournalReview
import RelaunchContract
import Testing

/// Builds journal records the way permissiond, systemd and checkin-demo write them.
struct JournalScript {
    var now: UInt64 = 1_700_000_000_000_000
    var records: [JournalRecord] = []
    let unit = "checkin-demo.service"

    mutating func advance(_ usec: UInt64) { now += usec }

    mutating func change(_ permission: String, _ old: String, _ new: String, kill: Bool) {
        records.append(JournalRecord(realtimeUSec: now, fields: [
            "MESSAGE_ID": MessageID.permissionChanged.rawValue, "APP_ID": "checkin-demo",
            "PERMISSION": permission, "OLD_STATE": old, "NEW_STATE": new, "CALLER_UID": "0",
            "KILL": kill ? "true" : "false", "_SYSTEMD_UNIT": "permissiond.service", "_PID": "40",
            "_UID": JournalMaker.permissiondUID, "_COMM": "permissiond",
        ]))
    }

    mutating func killed(_ permission: String) {
        records.append(JournalRecord(realtimeUSec: now, fields: [
            "MESSAGE_ID": MessageID.appKilled.rawValue, "APP_ID": "checkin-demo", "UNIT": unit,
            "PERMISSION": permission, "SIGNAL": "KILL", "_SYSTEMD_UNIT": "permissiond.service", "_PID": "40",
            "_UID": JournalMaker.permissiondUID, "_COMM": "permissiond",
        ]))
    }

    mutating func manager(_ id: ManagerMessageID, invocation: String, extra: [String: String] = [:]) {
        var fields = ["MESSAGE_ID": id.rawValue, "UNIT": unit, "INVOCATION_ID": invocation, "_PID": "1", "_UID": "0"]
        fields.merge(extra) { $1 }
        records.append(JournalRecord(realtimeUSec: now, fields: fields))
    }

    mutating func app(_ id: MessageID, invocation: String, pid: String, _ extra: [String: String]) {
        var fields = [
            "MESSAGE_ID": id.rawValue, "_SYSTEMD_UNIT": unit, "_SYSTEMD_INVOCATION_ID": invocation,
            "_PID": pid, "_UID": "994", "SYSLOG_IDENTIFIER": "checkin-demo",
        ]
        fields.merge(extra) { $1 }
        records.append(JournalRecord(realtimeUSec: now, fields: fields))
        now += 10
    }

    /// A whole kill → relaunch → restore chain, `relaunch` µs from exit to ready.
    mutating func killAndRestore(from old: String, to new: String, oldInvocation: String, newInvocation: String,
                                 relaunch: UInt64, outcome: String = "restored") {
        change("camera", old, new, kill: true)
        advance(800); killed("camera")
        advance(1_200); manager(.processExited, invocation: oldInvocation, extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        let exitedAt = now
        advance(relaunch / 2); manager(.restartScheduled, invocation: oldInvocation, extra: ["N_RESTARTS": "1"])
        advance(relaunch / 4)
        if outcome == "discarded" {
            app(.savedStateDiscarded, invocation: newInvocation, pid: "77", ["REASON": "corrupt"])
        } else {
            for (path, via) in [("TabViewController", "restorationClass"),
                                ("TabViewController/CheckInViewController/CheckInModalNavigationController", "appDelegate")] {
                app(.viewControllerRestored, invocation: newInvocation, pid: "77", ["RESTORATION_PATH": path, "RESTORED_VIA": via])
            }
            app(.restorationFinished, invocation: newInvocation, pid: "77", ["RESTORED_COUNT": "2", "PRESENTED_PATH": "TabViewController/CheckInViewController/CheckInModalNavigationController"])
        }
        app(.appLaunched, invocation: newInvocation, pid: "77", ["LAUNCH_OUTCOME": outcome, "BUILD_NUMBER": "7"])
        now = exitedAt + relaunch
        manager(.started, invocation: newInvocation, extra: ["MESSAGE": "Started checkin-demo.service"])
    }
}

@Suite("Journal timeline")
struct TimelineBuilderTests {
    @Test("A kill and relaunch become one incident in the contract's order")
    func seedIncident() {
        var script = JournalScript()
        script.app(.lifecycleChanged, invocation: "old", pid: "10", ["LIFECYCLE": "background"])
        script.advance(5_000)
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "old", newInvocation: "new", relaunch: 40_000)

        let incidents = TimelineBuilder.incidents(from: script.records.shuffled())
        #expect(incidents.count == 1)
        let incident = incidents[0]
        #expect(incident.unit == "checkin-demo.service")
        #expect(incident.oldState == "denied" && incident.newState == "allowed")
        #expect(incident.events.map(\.kind) == [
            .permissionChanged, .killSent, .processExited, .restartScheduled, .processStarted,
            .controllerRestored, .controllerRestored, .restorationFinished, .launched, .ready,
        ])
        #expect(incident.relaunchUSec == 40_000)
        #expect(incident.launchOutcome == "restored")
        #expect(incident.events[1].sinceChangeUSec == 800)
    }

    @Test("A change that does not kill collects no systemd entries")
    func changeWithoutKill() {
        var script = JournalScript()
        script.change("location", "denied", "allowed", kill: false)
        script.advance(1_000)
        script.manager(.processExited, invocation: "x", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        let incidents = TimelineBuilder.incidents(from: script.records)
        #expect(incidents.count == 1)
        #expect(incidents[0].events.map(\.kind) == [.permissionChanged])
        #expect(incidents[0].relaunchUSec == nil)
    }

    @Test("Entries of the killed instance are not taken for the relaunch")
    func oldInstanceIgnored() {
        var script = JournalScript()
        script.change("camera", "denied", "allowed", kill: true)
        script.advance(100)
        script.killed("camera")
        script.app(.statePreserved, invocation: "old", pid: "10", ["ARCHIVE_BYTES": "900"])
        script.app(.appLaunched, invocation: "old", pid: "10", ["LAUNCH_OUTCOME": "fresh"])
        let incident = TimelineBuilder.incidents(from: script.records)[0]
        #expect(!incident.events.contains { $0.kind == .launched || $0.kind == .processStarted })
    }

    @Test("systemd's entries rotated away: the relaunched instance still joins by the kill entry's KILLED_INVOCATION_ID")
    func relaunchWithoutSystemdEntries() {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "old", newInvocation: "new", relaunch: 40_000)
        // A flood of the default journal took PID 1's entries; permissiond's and the app's are in
        // namespaces of their own. The old instance logs once more before it dies.
        var records = script.records.filter { $0.fields["_PID"] != "1" }
        let kill = records.firstIndex { $0.messageID == MessageID.appKilled.rawValue }!
        records[kill].fields["KILLED_INVOCATION_ID"] = "old"
        records.insert(JournalRecord(realtimeUSec: records[kill].realtimeUSec + 1, fields: [
            "MESSAGE_ID": MessageID.statePreserved.rawValue, "_SYSTEMD_UNIT": script.unit,
            "_SYSTEMD_INVOCATION_ID": "old", "_PID": "10", "_UID": "994", "ARCHIVE_BYTES": "900",
        ]), at: kill + 1)

        let incidents = TimelineBuilder.incidents(from: records)
        #expect(incidents.count == 1)
        #expect(incidents[0].events.map(\.kind) == [
            .permissionChanged, .killSent, .processStarted, .controllerRestored, .controllerRestored,
            .restorationFinished, .launched,
        ])
        #expect(incidents[0].launchOutcome == "restored")
        #expect(incidents[0].relaunchUSec == nil)
        // Without the kill entry's invocation there is nothing to tell the instances apart by.
        records[kill].fields["KILLED_INVOCATION_ID"] = nil
        #expect(TimelineBuilder.incidents(from: records)[0].events.map(\.kind) == [.permissionChanged, .killSent])
    }

    @Test("Summary counts kills, restores, discards by reason and relaunch percentiles")
    func summary() {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000)
        script.advance(1_000_000)
        script.killAndRestore(from: "allowed", to: "denied", oldInvocation: "b", newInvocation: "c", relaunch: 50_000,
                              outcome: "discarded")
        script.advance(1_000_000)
        script.change("location", "allowed", "denied", kill: false)
        let report = TimelineReport(records: script.records)
        #expect(report.summary.incidents == 3)
        #expect(report.summary.kills == 2)
        #expect(report.summary.restores == 1)
        #expect(report.summary.discardsByReason == ["corrupt": 1])
        #expect(report.summary.relaunchUSec == [30_000, 50_000])
        #expect(report.summary.relaunchMedianUSec == 30_000)
        #expect(report.summary.relaunchP95USec == 50_000)
        let text = TimelineRenderer.text(report.incidents, summary: report.summary)
        #expect(text.contains("summary: 3 incidents, 2 kills, 1 restore, 1 discard (corrupt 1)"))
        #expect(text.contains("via appDelegate"))
    }

    @Test("A second change supersedes the open incident of the same app")
    func supersede() {
        var script = JournalScript()
        script.change("camera", "denied", "allowed", kill: true)
        script.advance(100); script.killed("camera")
        script.advance(100)
        script.killAndRestore(from: "allowed", to: "denied", oldInvocation: "a", newInvocation: "b", relaunch: 20_000)
        let incidents = TimelineBuilder.incidents(from: script.records)
        #expect(incidents.count == 2)
        #expect(incidents[0].events.map(\.kind) == [.permissionChanged, .killSent])
        #expect(incidents[1].relaunchUSec == 20_000)
    }
}

@Suite("Journal timeline: entries out of order")
struct TimelineOrderTests {
    @Test("permissiond's entries arriving after systemd's exit entry still join the relaunch")
    func lateDaemonEntries() {
        var script = JournalScript()
        let changedAt = script.now
        script.advance(1_000)
        script.manager(.processExited, invocation: "old", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        script.advance(500)
        // journald stamps these when they arrive, after the exit; they carry when they happened.
        script.change("camera", "denied", "allowed", kill: true)
        script.records[script.records.count - 1].fields["CHANGED_USEC"] = String(changedAt)
        script.killed("camera")
        script.records[script.records.count - 1].fields["KILLED_USEC"] = String(changedAt + 400)
        script.advance(100_000)
        script.manager(.restartScheduled, invocation: "old", extra: ["N_RESTARTS": "1"])
        script.app(.appLaunched, invocation: "new", pid: "9", ["LAUNCH_OUTCOME": "restored"])
        script.manager(.started, invocation: "new")

        let incidents = TimelineBuilder.incidents(from: script.records)
        #expect(incidents.count == 1)
        #expect(incidents[0].events.map(\.kind) == [
            .permissionChanged, .killSent, .processExited, .restartScheduled, .processStarted, .launched, .ready,
        ])
        #expect(incidents[0].changedAtUSec == changedAt)
        #expect(incidents[0].events[1].sinceChangeUSec == 400)
        #expect(incidents[0].relaunchUSec != nil)
    }
}
