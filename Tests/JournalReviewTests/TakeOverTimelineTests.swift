import JournalReview
import RelaunchContract
import Testing

/// A standby's take-over in the timeline (docs/DESIGN.md, "The standby"): systemd logs no exit, no
/// restart and no "Started" for it, and the relaunched process keeps the unit's invocation; the
/// incident still shows the relaunch, phase by phase, from the standby's own entries.
@Suite("Journal timeline: a standby's take-over")
struct TakeOverTimelineTests {
    /// A change, its kill of instance "inv" (pid 10), the standby (pid 11) seeing it gone 3 ms after the
    /// change, taking over, restoring and saying READY=1 at 5 ms; the killed process's last entry too.
    private func takeOver() -> JournalScript {
        var script = JournalScript()
        script.change("camera", "denied", "allowed", kill: true)
        let changed = script.now
        script.advance(600)
        script.killed("camera")
        script.records[script.records.count - 1].fields["KILLED_INVOCATION_ID"] = "inv"
        script.advance(100)
        script.app(.lifecycleChanged, invocation: "inv", pid: "10", ["LIFECYCLE": "background"])
        script.advance(2_400)
        script.app(.standbyTookOver, invocation: "inv", pid: "11", [
            "TAKEOVER_PHASE": "main", "TAKEN_OVER_PID": "10", "TAKEOVER_GONE_USEC": "\(changed + 3_000)",
        ])
        script.app(.restorationFinished, invocation: "inv", pid: "11", ["RESTORED_COUNT": "2", "PRESENTED_PATH": "X"])
        script.app(.appLaunched, invocation: "inv", pid: "11", ["LAUNCH_OUTCOME": "restored", "BUILD_NUMBER": "7"])
        script.advance(2_000)
        script.app(.standbyTookOver, invocation: "inv", pid: "11", [
            "TAKEOVER_PHASE": "ready", "TAKEN_OVER_PID": "10", "LAUNCH_READY_USEC": "\(changed + 5_000)",
        ])
        return script
    }

    @Test("A take-over is the incident's relaunch, with the killed process's end, the take-over and READY")
    func takeOverIsARelaunch() {
        let incidents = TimelineBuilder.incidents(from: takeOver().records.shuffled())
        #expect(incidents.count == 1)
        let events = incidents[0].events
        #expect(events.map(\.kind) == [
            .permissionChanged, .killSent, .processExited, .tookOver, .restorationFinished, .launched, .ready,
        ])
        #expect(events.first { $0.kind == .processExited }?.sinceChangeUSec == 3_000)
        #expect(events.first { $0.kind == .ready }?.sinceChangeUSec == 5_000)
        #expect(incidents[0].relaunchUSec == 2_000)
        #expect(incidents[0].launchOutcome == "restored")
    }

    @Test("The timeline says who sent the SIGKILL: the standby on permissiond's request, or someone else")
    func whoKilled() {
        let byOther = TimelineRenderer.text(TimelineBuilder.incidents(from: takeOver().records)[0], number: 1)
        #expect(byOther.contains("pid 10 gone without a word (SIGKILL), seen by the standby"), "\(byOther)")
        var script = takeOver()
        let main = script.records.firstIndex { $0.fields["TAKEOVER_PHASE"] == "main" }!
        script.records[main].fields["TAKEOVER_KILL_SENT_USEC"] = "\(script.records[main].realtimeUSec)"
        let byStandby = TimelineRenderer.text(TimelineBuilder.incidents(from: script.records)[0], number: 1)
        #expect(byStandby.contains("pid 10 SIGKILLed by the standby on permissiond's request"), "\(byStandby)")
    }

    @Test("Entries of the killed process, in the same invocation, are not taken for the relaunch")
    func killedProcessIgnored() {
        var script = takeOver()
        // The killed process (pid 10) logged "launched" before it died: not the relaunch's.
        let kill = script.records.firstIndex { $0.messageID == MessageID.appKilled.rawValue }!
        var late = script.records[kill + 1]
        late.fields["MESSAGE_ID"] = MessageID.appLaunched.rawValue
        late.fields["LAUNCH_OUTCOME"] = "fresh"
        script.records.insert(late, at: kill + 2)
        let events = TimelineBuilder.incidents(from: script.records)[0].events
        #expect(events.filter { $0.kind == .launched }.map { $0["LAUNCH_OUTCOME"] } == ["restored"])
    }

    @Test("A take-over in another invocation than the killed one does not join")
    func otherInvocationIgnored() {
        var script = takeOver()
        for index in script.records.indices where script.records[index].fields["_PID"] == "11" {
            script.records[index].fields["_SYSTEMD_INVOCATION_ID"] = "other"
        }
        let events = TimelineBuilder.incidents(from: script.records)[0].events
        #expect(!events.contains { $0.kind == .tookOver || $0.kind == .ready })
    }
}
