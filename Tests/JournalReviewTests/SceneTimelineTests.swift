import Foundation
import JournalReview
import RelaunchContract
import Testing

extension JournalScript {
    /// The relaunched instance's `scene session restored` entry for `session`.
    mutating func scene(
        _ session: String, _ outcome: String, invocation: String, type: String = "", title: String = "", reason: String = ""
    ) {
        app(.sceneSessionRestored, invocation: invocation, pid: "77", [
            "SCENE_SESSION": session, "SCENE_ROLE": "UIWindowSceneSessionRoleApplication", "SCENE_OUTCOME": outcome,
            "ACTIVITY_TYPE": type, "ACTIVITY_TITLE": title, "REASON": reason,
        ])
    }

    /// A kill and a relaunch of a scene-based app whose three windows came back: A and C restored,
    /// B's damaged record discarded alone; `forged` adds entries among the app's own.
    mutating func sceneRelaunch(forged: (inout JournalScript) -> Void = { _ in }) {
        change("photos", "denied", "allowed", kill: true)
        advance(800); killed("photos")
        advance(1_200); manager(.processExited, invocation: "old", extra: ["EXIT_CODE": "killed", "EXIT_STATUS": "9"])
        advance(10_000); manager(.restartScheduled, invocation: "old", extra: ["N_RESTARTS": "1"])
        advance(5_000)
        scene("A-1", "restored", invocation: "new", type: "org.relaunch.notes.editing", title: "Groceries")
        forged(&self)
        scene("B-2", "discarded", invocation: "new", reason: "corrupt")
        scene("C-3", "restored", invocation: "new", type: "org.relaunch.notes.editing", title: "Plans")
        app(.appLaunched, invocation: "new", pid: "77", ["LAUNCH_OUTCOME": "restored", "BUILD_NUMBER": "7"])
        advance(1_000)
        manager(.started, invocation: "new", extra: ["MESSAGE": "Started checkin-demo.service"])
    }
}

/// The report built both ways (whole journal, streamed), checked to agree.
private func sceneReport(_ records: [JournalRecord]) -> TimelineReport {
    let report = TimelineReport(records: records, trust: JournalMaker.trust)
    let streamed = StreamedTimeline(records, trust: JournalMaker.trust)
    #expect(streamed.incidents == report.incidents)
    return report
}

@Suite("Journal timeline: scene sessions")
struct SceneTimelineTests {
    @Test("each scene session's entry joins its relaunch, in order, with its outcome and own reason")
    func grouped() throws {
        var script = JournalScript()
        script.sceneRelaunch()
        let report = sceneReport(script.records)
        let incident = try #require(report.incidents.first)
        #expect(report.incidents.count == 1)
        #expect(incident.scenes.map { $0["SCENE_SESSION"] } == ["A-1", "B-2", "C-3"])
        #expect(incident.scenes.map { $0["SCENE_OUTCOME"] } == ["restored", "discarded", "restored"])
        #expect(incident.scenes.map { $0["REASON"] } == ["", "corrupt", ""])
        #expect(incident.scenes.allSatisfy { $0.invocationID == "new" })
        // Under the relaunch: after the new process started, before it said it launched.
        let kinds = incident.events.map(\.kind)
        let started = try #require(kinds.firstIndex(of: .processStarted))
        let launched = try #require(kinds.firstIndex(of: .launched))
        #expect(kinds.indices.filter { kinds[$0] == .sceneRestored }.allSatisfy { $0 > started && $0 < launched })
        // A scene's discard is its own, not the launch's.
        #expect(incident.discardReasons.isEmpty)
        #expect(report.summary.all.scenesByOutcome == ["restored": 2, "discarded": 1])
        #expect(report.summary.all.sceneDiscardsByReason == ["corrupt": 1])
    }

    @Test("the text, the JSON and the HTML report show them")
    func rendered() throws {
        var script = JournalScript()
        script.sceneRelaunch()
        let report = sceneReport(script.records)
        let text = TimelineRenderer.text(report.incidents, summary: report.summary)
        #expect(text.contains("scene                 A-1 restored: org.relaunch.notes.editing \"Groceries\"\n"), "\(text)")
        #expect(text.contains("scene                 B-2 discarded, reason corrupt\n"), "\(text)")
        #expect(text.contains("; scene sessions: 2 restored, 1 discarded (corrupt 1)\n"), "\(text)")

        var writer = TimelineJSONWriter()
        var out: [UInt8] = []
        writer.begin(into: &out)
        for incident in report.incidents { writer.add(incident, into: &out) }
        writer.end(report.summary, into: &out)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        #expect(String(decoding: out, as: UTF8.self) == String(decoding: try encoder.encode(report), as: UTF8.self))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        let incidents = try #require(json["incidents"] as? [[String: Any]])
        let events = try #require(incidents.first?["events"] as? [[String: Any]])
        let scenes = events.filter { $0["kind"] as? String == "scene-restored" }
        #expect(scenes.compactMap { ($0["fields"] as? [String: String])?["SCENE_SESSION"] } == ["A-1", "B-2", "C-3"])
        let summary = try #require(json["summary"] as? [String: Any])
        let sceneSummary = try #require(summary["sceneSessions"] as? [String: [String: Int]])
        #expect(sceneSummary["byOutcome"] == ["restored": 2, "discarded": 1])
        #expect(sceneSummary["discardsByReason"] == ["corrupt": 1])

        let html = FleetReport.html(report.summary, source: "test")
        #expect(html.contains("<h2>Scene sessions at relaunch, per app</h2>"))
        #expect(html.contains("<tr><td>checkin-demo</td><td>2</td><td>1</td><td>0</td><td class=\"l\">corrupt 1</td></tr>"), "\(html)")
    }

    @Test("a forged scene entry from another process is not attached to the app's relaunch, and is counted")
    func forgedSceneEntry() throws {
        var script = JournalScript()
        script.sceneRelaunch { script in
            // From a user's session, claiming the app's unit and invocation in fields it writes itself.
            script.forge(MessageID.sceneSessionRestored.rawValue, [
                "SCENE_SESSION": "FORGED-1", "SCENE_OUTCOME": "restored", "UNIT": script.unit,
                "INVOCATION_ID": "new", "SYSLOG_IDENTIFIER": "checkin-demo",
            ])
            // From another registered app's unit: believed as that app's entry, never joined to this one's relaunch.
            script.forge(MessageID.sceneSessionRestored.rawValue, ["SCENE_SESSION": "FORGED-2", "SCENE_OUTCOME": "discarded", "REASON": "corrupt"],
                         trusted: ["_SYSTEMD_UNIT": "banca-demo.service", "_UID": "995", "_PID": "88",
                                   "_SYSTEMD_INVOCATION_ID": "new"])
        }
        let report = sceneReport(script.records)
        let incident = try #require(report.incidents.first)
        #expect(incident.scenes.map { $0["SCENE_SESSION"] } == ["A-1", "B-2", "C-3"])
        #expect(report.summary.all.scenesByOutcome == ["restored": 2, "discarded": 1])
        #expect(report.summary.ignoredByReason == ["app-entry-not-from-registered-unit": 1])
        let text = TimelineRenderer.text(report.incidents, summary: report.summary)
        #expect(!text.contains("FORGED"))
    }
}
