import Foundation
import RelaunchTestSupport
import Systemd
import Testing

/// The timeline trusts journald's trusted fields, not what a sender wrote (CONTRACT.md, "What the
/// timeline trusts"): an unprivileged user who forges Relaunch's and systemd's entries with
/// `logger --journald` gets no incident, only a count of ignored entries; a real change still shows.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct JournalTrustChecks {
    @Test func forgedEntriesAreIgnoredAndCounted() throws {
        _ = try Command.run(["systemctl", "reset-failed", Demo.unit])
        try Command.expect(0, ["systemctl", "start", Demo.unit])
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
        // Start from camera allowed, so that the real change below is a revoke, which kills under any policy.
        try Command.expect(0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", "allowed"])
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
        let start = Date().timeIntervalSince1970
        let since = "@" + String(format: "%.6f", start)
        let now = UInt64(start * 1_000_000)
        let mark = try Journal.mark()

        // permissiond's two entries and PID 1's exit entry, as a user without any privilege writes them.
        // CALLER_UID 4242 marks the forgery: no real change comes from that uid here.
        try forge("""
            MESSAGE_ID=\(Permissiond.changedID)
            MESSAGE=checkin-demo: camera allowed -> denied (forged)
            APP_ID=checkin-demo
            PERMISSION=camera
            OLD_STATE=allowed
            NEW_STATE=denied
            CALLER_UID=4242
            KILL=true
            CHANGED_USEC=\(now)
            """)
        try forge("""
            MESSAGE_ID=\(Permissiond.killedID)
            MESSAGE=killed checkin-demo.service (forged)
            APP_ID=checkin-demo
            UNIT=checkin-demo.service
            PERMISSION=camera
            SIGNAL=KILL
            KILLED_USEC=\(now + 300)
            """)
        try forge("""
            MESSAGE_ID=\(Permissiond.systemdExitID)
            MESSAGE=checkin-demo.service: Main process exited, code=killed, status=9/KILL (forged)
            UNIT=checkin-demo.service
            INVOCATION_ID=00000000000000000000000000004242
            EXIT_CODE=killed
            EXIT_STATUS=9
            """)
        try journalSync()
        // journald did write them, with the forger's credentials.
        let forged = try Journal.entries(["MESSAGE_ID": Permissiond.changedID, "CALLER_UID": "4242"], after: mark).first?["_UID"]
        #expect(forged == "65534", "the forged entry's _UID: expected '65534', got '\(forged ?? "none")'")

        // A real change by root, through permissiond, that kills the app.
        let set = try Command.expect(0, ["relaunchctl", "permission", "set", "checkin-demo", "camera", "denied"])
        #expect(set.output.contains("app killed"), "the real change did not kill: \(set)")
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
        try journalSync()

        let review = try Command.expect(0, ["relaunchctl", "journal", "--since", since, "--json"])
        let json = try JSON.object(review)
        let incidents = json["incidents"] as? [[String: Any]] ?? []
        let forgedIncidents = incidents.filter { JSON.text($0["callerUID"]) == "4242" }.count
        #expect(forgedIncidents == 0, "forged incidents in: \(review.stdout); count: \(forgedIncidents)")
        let real = incidents.filter { JSON.text($0["callerUID"]) == "0" && JSON.text($0["permission"]) == "camera" }.count
        #expect(real == 1, "real camera changes: expected 1, got \(real) in \(review.stdout)")
        let kills = JSON.text(at: "summary.kills", in: json)
        #expect(kills == "1", "kills: expected 1, got \(kills)")
        // The real incident's exit entry is PID 1's, not the forged one.
        let events = incidents.first?["events"] as? [[String: Any]] ?? []
        let exits = events.filter { JSON.text($0["kind"]) == "process-exited" }.map { JSON.text(at: "fields._PID", in: $0) }
        #expect(exits == ["1"], "the process-exited event's _PID: expected [\"1\"], got \(exits)")
        let ignored = Int(JSON.text(at: "summary.ignoredEntries", in: json))
        guard let ignored, ignored >= 3 else {
            throw CheckFailure("summary.ignoredEntries: expected >= 3, got \(JSON.text(at: "summary.ignoredEntries", in: json))")
        }
        note("ignored entries: \(ignored)")

        let text = try Command.expect(0, ["relaunchctl", "journal", "--since", since])
        #expect(!text.output.contains("uid 4242"), "relaunchctl journal shows the forgery: \(text)")
        let last = text.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("ignored \(ignored) entries"), "relaunchctl journal's last line lacks 'ignored \(ignored) entries': \(last)")
    }

    /// Writes one journal entry, its NAME=value lines, as uid 65534.
    private func forge(_ fields: String) throws {
        try Command.expect(0, ["logger", "--journald"], as: .nobody, input: fields + "\n")
    }
}
