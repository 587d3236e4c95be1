import FoundationEssentials
import JournalReview
import RelaunchContract
import Testing

/// Reads `records` the way `relaunchctl journal` reads the journal: permissiond's entries first,
/// then every entry in journal order, skipping those no incident can take.
struct StreamedTimeline {
    var incidents: [Incident] = []
    /// How many incidents were handed over before the end of the journal.
    var handedOverEarly = 0
    /// The most incidents handed over at once before the end.
    var largestEarlyBatch = 0
    /// How many records were given to the stream.
    var added = 0
    /// The entries the stream left out by their trusted fields.
    var ignored: [JournalTrust.Reason: Int] = [:]

    init(_ records: [JournalRecord], trust: JournalTrust = JournalTrust()) {
        var plan = TimelineStream.Plan(trust: trust)
        for record in records { plan.add(record) }
        var stream = TimelineStream(plan)
        for record in records {
            guard stream.admit(record) else { continue }
            guard stream.add(record) else { break }
            added += 1
            let finished = stream.takeFinished()
            handedOverEarly += finished.count
            largestEarlyBatch = max(largestEarlyBatch, finished.count)
            incidents += finished
        }
        incidents += stream.finish()
        ignored = stream.ignored
    }
}

@Suite("Journal timeline: streaming")
struct TimelineStreamTests {
    @Test("Streaming joins the same incidents as the whole journal at once", arguments: 0..<40)
    func sameAsBatch(seed: UInt64) {
        let records = JournalMaker.journal(seed: seed, incidents: 30)
        let batch = TimelineBuilder.incidents(from: records)
        let streamed = StreamedTimeline(records)
        #expect(batch.count >= 30)
        #expect(streamed.incidents == batch)
        #expect(TimelineSummary(streamed.incidents) == TimelineSummary(batch))
    }

    @Test("An app's entry the timeline does not read changes nothing, even the new instance's first")
    func unreadEntryChangesNothing() {
        var plain = JournalScript()
        plain.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 40_000)
        var records = plain.records
        // Before the relaunched instance's first restoration: an entry of its own with a MESSAGE_ID no
        // kind of the timeline's, and one with none.
        let first = records.firstIndex { $0.messageID == MessageID.viewControllerRestored.rawValue }!
        for messageID in ["0123456789abcdef0123456789abcdef", nil] {
            var fields = records[first].fields
            fields["MESSAGE_ID"] = messageID
            fields["_PID"] = "78"
            records.insert(JournalRecord(realtimeUSec: records[first].realtimeUSec - 5, fields: fields), at: first)
        }
        #expect(StreamedTimeline(records).incidents == StreamedTimeline(plain.records).incidents)
        #expect(TimelineBuilder.incidents(from: records) == TimelineBuilder.incidents(from: plain.records))
    }

    @Test("READY=1 journaled before the app's launch entry still waits for it")
    func readyBeforeLaunched() {
        var script = JournalScript()
        script.change("camera", "denied", "allowed", kill: true)
        script.advance(800); script.killed("camera")
        script.advance(1_200); script.manager(.processExited, invocation: "a", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        script.advance(20_000); script.manager(.restartScheduled, invocation: "a", extra: ["N_RESTARTS": "1"])
        script.advance(10_000); script.manager(.started, invocation: "b", extra: ["MESSAGE": "Started checkin-demo.service"])
        script.advance(10); script.app(.appLaunched, invocation: "b", pid: "77", ["LAUNCH_OUTCOME": "restored", "BUILD_NUMBER": "7"])
        for incidents in [StreamedTimeline(script.records).incidents, TimelineBuilder.incidents(from: script.records)] {
            #expect(incidents.count == 1)
            #expect(incidents.first?.launchOutcome == "restored")
            #expect(incidents.first?.events.map(\.kind).suffix(3) == [.ready, .processStarted, .launched])
        }
    }

    @Test("Incidents are handed over as soon as they can no longer change, not at the end")
    func handsOverEarly() {
        let records = JournalMaker.journal(seed: 7, incidents: 200, killShare: 1)
        let streamed = StreamedTimeline(records)
        #expect(streamed.incidents.count >= 200)
        #expect(streamed.handedOverEarly == streamed.incidents.count)
        #expect(streamed.largestEarlyBatch == 1)
        // Other units' entries never reach the stream.
        #expect(streamed.added < records.count - 200)
    }

    @Test("A change that did not kill holds the incidents after it until the app changes again")
    func noKillWaits() {
        let records = JournalMaker.journal(seed: 8, incidents: 200)
        let streamed = StreamedTimeline(records)
        #expect(streamed.incidents.contains { !$0.killDecided })
        // At the end, at most the last change of each of the three apps is still open.
        #expect(streamed.handedOverEarly >= streamed.incidents.count - 3)
        #expect(streamed.largestEarlyBatch > 1)
    }

    @Test("permissiond's entries stamped after systemd's exit entry still join the relaunch")
    func lateDaemonEntries() {
        var script = JournalScript()
        let changedAt = script.now
        script.advance(1_000)
        script.manager(.processExited, invocation: "old", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        script.advance(500)
        script.change("camera", "denied", "allowed", kill: true)
        script.records[script.records.count - 1].fields["CHANGED_USEC"] = String(changedAt)
        script.killed("camera")
        script.records[script.records.count - 1].fields["KILLED_USEC"] = String(changedAt + 400)
        script.advance(100_000)
        script.manager(.restartScheduled, invocation: "old", extra: ["N_RESTARTS": "1"])
        script.app(.appLaunched, invocation: "new", pid: "9", ["LAUNCH_OUTCOME": "restored"])
        script.manager(.started, invocation: "new")

        let streamed = StreamedTimeline(script.records).incidents
        #expect(streamed == TimelineBuilder.incidents(from: script.records))
        #expect(streamed.first?.events.map(\.kind) == [
            .permissionChanged, .killSent, .processExited, .restartScheduled, .processStarted, .launched, .ready,
        ])
    }

    @Test("An entry of permissiond's that the first pass did not read ends the second")
    func journalGrewBetweenPasses() {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000)
        let firstPass = script.records
        script.advance(1_000_000)
        script.killAndRestore(from: "allowed", to: "denied", oldInvocation: "b", newInvocation: "c", relaunch: 30_000)

        var plan = TimelineStream.Plan()
        for record in firstPass { plan.add(record) }
        #expect(plan.count == 2)
        var stream = TimelineStream(plan)
        var stoppedAt: Int?
        for (index, record) in script.records.enumerated() {
            guard stream.add(record) else {
                stoppedAt = index
                break
            }
        }
        #expect(stoppedAt == firstPass.count)
        #expect(stream.finish().count == 1)
    }
}

@Suite("Journal timeline: JSON")
struct TimelineJSONTests {
    /// What `relaunchctl journal --json` printed before it streamed: JSONEncoder over the report.
    func encoded(_ report: TimelineReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    func written(_ incidents: [Incident]) -> String {
        var writer = TimelineJSONWriter()
        var out: [UInt8] = []
        writer.begin(into: &out)
        for incident in incidents { writer.add(incident, into: &out) }
        writer.end(TimelineSummary(incidents), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("The writer's bytes are JSONEncoder's", arguments: [0, 1, 2, 25])
    func sameAsEncoder(incidents: Int) throws {
        let records = JournalMaker.journal(seed: UInt64(incidents), incidents: incidents)
        let report = TimelineReport(records: records)
        #expect(written(report.incidents) == (try encoded(report)))
    }

    @Test("Strings are escaped as JSONEncoder escapes them")
    func escaping() throws {
        let awkward = "quote \" backslash \\ slash / controls \u{0}\u{1}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1b}\u{1f}"
            + " delete \u{7f} accents éü emoji 🧭 line\u{2028}separator"
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000,
                              outcome: "discarded")
        for index in script.records.indices {
            script.records[index].fields["MESSAGE"] = awkward
            script.records[index].fields["REASON"] = awkward
            if script.records[index].fields["PERMISSION"] != nil { script.records[index].fields["PERMISSION"] = awkward }
        }
        let report = TimelineReport(records: script.records)
        #expect(report.summary.discardsByReason == [awkward: 1])
        #expect(written(report.incidents) == (try encoded(report)))
    }

    @Test("A value with one kind of escape alone is escaped as JSONEncoder escapes it",
          arguments: ["/", "//", "\\", "\"\"", "tab\there", "line\nbreak", "bell\u{7}", "quote\"", "back\\slash"])
    func oneEscapeAlone(value: String) throws {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 30_000,
                              outcome: "discarded")
        for index in script.records.indices {
            script.records[index].fields["MESSAGE"] = value
            if script.records[index].fields["REASON"] != nil { script.records[index].fields["REASON"] = value }
        }
        let report = TimelineReport(records: script.records)
        #expect(report.summary.discardsByReason == [value: 1])
        #expect(written(report.incidents) == (try encoded(report)))
    }
}

@Suite("Journal timeline: text")
struct TimelineTextTests {
    @Test("One incident's block, as the README shows it")
    func golden() {
        var script = JournalScript()
        script.killAndRestore(from: "denied", to: "allowed", oldInvocation: "a", newInvocation: "b", relaunch: 120_000)
        let incidents = StreamedTimeline(script.records).incidents
        let text = TimelineRenderer.text(incidents, summary: TimelineSummary(incidents))
        #expect(text == """
            incident 1  2023-11-14T22:13:20.000Z  checkin-demo  camera denied → allowed  (uid 0)
              +0.000s   permission changed    camera: denied → allowed, uid 0, kill
              +0.000s   kill sent             SIGKILL to checkin-demo.service
              +0.002s   process died          killed by signal 9 (SIGKILL)
              +0.062s   restart scheduled     restart counter 1
              +0.092s   new process started   pid 77
              +0.092s   restored              TabViewController via restorationClass
              +0.092s   restored              TabViewController/CheckInViewController/CheckInModalNavigationController via appDelegate
              +0.092s   restoration finished  2 controllers, presented TabViewController/CheckInViewController/CheckInModalNavigationController
              +0.092s   app launched          restored, build 7
              +0.122s   ready                 READY=1 (Started checkin-demo.service)
              relaunch: 120.0 ms from exit to ready, outcome restored

            summary: 1 incident, 1 kill, 1 restore, 0 discards; relaunch median 120.0 ms, p95 120.0 ms

            """)
    }
}
