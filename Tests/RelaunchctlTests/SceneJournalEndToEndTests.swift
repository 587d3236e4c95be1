import FoundationEssentials
import Glibc
import RelaunchTestSupport
import Testing

/// Per-scene entries on real journal files (written by the real systemd-journal-remote, read by the
/// built relaunchctl through sd-journal): each window of the relaunch is grouped under it with the
/// fields the timeline picks, and a forged one from a login session is left out and counted.
@Suite("relaunchctl journal: scene sessions on real journal files", .serialized)
struct SceneJournalEndToEndTests {
    /// The relaunch's three windows, and a forged fourth from a user's session claiming the app's unit.
    static let scenes: [(UInt64, [String: String])] = [
        ("A-1", "restored", "Groceries", ""), ("B-2", "discarded", "", "corrupt"), ("C-3", "restored", "Plans", ""),
    ].enumerated().map { index, scene in
        (130_100 + UInt64(index) * 10, ExportedRelaunch.relaunchedApp.merging([
            "MESSAGE_ID": "30d1b4de270d462393320fc19e1c6609", "SCENE_SESSION": scene.0, "SCENE_OUTCOME": scene.1,
            "SCENE_ROLE": "UIWindowSceneSessionRoleApplication", "ACTIVITY_TITLE": scene.2, "REASON": scene.3,
            "ACTIVITY_TYPE": scene.2.isEmpty ? "" : "org.relaunch.notes.editing",
        ]) { $1 })
    } + [(130_115, [
        "MESSAGE_ID": "30d1b4de270d462393320fc19e1c6609", "SCENE_SESSION": "FORGED-9", "SCENE_OUTCOME": "restored",
        "UNIT": "checkin-demo.service", "INVOCATION_ID": String(repeating: "e", count: 32),
        "_SYSTEMD_UNIT": "session-3.scope", "_UID": "65534", "_PID": "4242", "_COMM": "logger",
    ])]

    @Test("the windows join their relaunch in the text and the JSON; the forged one does not")
    func scenesOnJournalFiles() throws {
        let directory = try TemporaryDirectory(prefix: "relaunchctl-scenes")
        let folder = directory.path
        try ExportedRelaunch.write(hostname: "notes-host", machine: String(repeating: "c3", count: 16),
                                   boot: String(repeating: "d4", count: 16), into: folder, extra: Self.scenes)

        let text = try Executable.run(["journal", "--directory", folder])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.contains("scene                 A-1 restored: org.relaunch.notes.editing\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("Groceries"), "a title is what the user typed: \(text.stdout)")
        #expect(text.stdout.contains("scene                 B-2 discarded, reason corrupt\n"), "\(text.stdout)")
        #expect(text.stdout.contains("scene sessions: 2 restored, 1 discarded (corrupt 1)"), "\(text.stdout)")
        #expect(text.stdout.contains("ignored 1 entry: 1 app entry not from the app's registered unit"), "\(text.stdout)")
        #expect(!text.stdout.contains("FORGED"))

        let json = try Executable.run(["journal", "--directory", folder, "--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        struct Review: Decodable {
            struct Incident: Decodable {
                struct Event: Decodable {
                    var kind: String
                    var fields: [String: String]
                }
                var events: [Event]
            }
            struct Summary: Decodable {
                struct Scenes: Decodable { var byOutcome: [String: Int] }
                var sceneSessions: Scenes
                var ignoredEntries: Int
            }
            var incidents: [Incident]
            var summary: Summary
        }
        let review = try JSONDecoder().decode(Review.self, from: Data(json.stdout.utf8))
        let scenes = try #require(review.incidents.first).events.filter { $0.kind == "scene-restored" }
        #expect(scenes.map { $0.fields["SCENE_SESSION"] } == ["A-1", "B-2", "C-3"])
        #expect(scenes.map { $0.fields["ACTIVITY_TYPE"] } == ["org.relaunch.notes.editing", "", "org.relaunch.notes.editing"])
        // Nor does the timeline copy a title an entry carries: it is what the user typed.
        #expect(scenes.allSatisfy { $0.fields["ACTIVITY_TITLE"] == nil })
        #expect(review.summary.sceneSessions.byOutcome == ["restored": 2, "discarded": 1])
        #expect(review.summary.ignoredEntries == 1)
    }
}
