import Foundation
import RelaunchContract
import RelaunchTestSupport
import Testing

/// notes-demo, the scene-based app, driven through relaunchctl's scene commands: two windows, each
/// edited through `--scene ID`, the second with the attachment picker up, then the app in the
/// background and a photos change (ios policy: permissiond kills it). systemd relaunches it and both
/// windows come back with the same session ids, their text and the picker where it was. Then an
/// unknown session id and --scene on an app that is not scene-based are refused in one line, with the
/// contract's exit codes.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct NotesDemoChecks {
    @Test func bringsBackTwoWindowsAfterAPhotosKill() throws {
        try NotesDemo.fresh()
        let first = try NotesDemo.json("scenes", "--json").value(at: "0.session")?.string ?? ""
        if first.isEmpty { throw CheckFailure("notes-demo opened no first window: \(try NotesDemo.ctl("scenes").stdout)") }
        let second = try NotesDemo.ctl("scene", "open").line
        try #require(second.wholeMatch(of: /[0-9A-F-]{36}/) != nil, "scene open printed '\(second)', not a session id")
        let sessions = try NotesDemo.sessions(try NotesDemo.json("scenes", "--json"))
        try #require(sessions == [first, second], "the open windows, in the order they were opened")

        try NotesDemo.ctl("--scene", first, "type", "title", "Shopping")
        try NotesDemo.ctl("--scene", first, "type", "body", "Milk and eggs")
        try NotesDemo.ctl("--scene", second, "type", "title", "Trip")
        try NotesDemo.ctl("type", "body", "Harbour at noon", "--scene", second)
        try NotesDemo.ctl("--scene", second, "tap", "attach")
        let pickerScreen = try NotesDemo.ctl("--scene", second, "screen").stdout
        try #require(pickerScreen.contains("Photos access is not-determined"), "window 2's screen: \(pickerScreen)")
        let elements = try NotesDemo.ctl("--scene", first, "elements").stdout
        try #require(elements.contains("cursor-left"), "window 1's elements (no picker there): \(elements)")
        try NotesDemo.ctl("background")

        var invocation = try Units.property(NotesDemo.unit, "InvocationID")
        try Command.expect(0, ["relaunchctl", "permission", "set", NotesDemo.app, "photos", "allowed"])
        try NotesDemo.waitRelaunched(from: invocation)

        let state = try NotesDemo.json("state", "--json")
        let scenes = state["scenes"]
        let restored = try scenes.map(NotesDemo.sessions)
        try #require(restored == [first, second], "the sessions after the relaunch: \(state)")
        func note(_ index: Int) -> String {
            "\(scenes?.value(at: "\(index).title")?.string ?? "null")|\(scenes?.value(at: "\(index).body")?.string ?? "null")"
        }
        try #require(note(0) == "Shopping|Milk and eggs", "window 1 after the relaunch")
        try #require(note(1) == "Trip|Harbour at noon", "window 2 after the relaunch")
        let presented = scenes?.value(at: "1.presented")?.string
        try #require(presented == "NoteViewController/AttachmentPickerNavigationController", "window 2's picker after the relaunch")
        let killedBy = state.value(at: "lastExit.permission")?.string
        try #require(killedBy == "photos", "what killed the last instance: \(state)")
        let listed = try NotesDemo.ctl("scenes").stdout
        try #require(listed.contains("Trip"), "relaunchctl app scenes after the relaunch: \(listed)")
        let offered = try NotesDemo.ctl("--scene", second, "screen").stdout
        try #require(offered.contains("tap photo:harbour.jpg"), "window 2's picker now offers photos: \(offered)")

        // Closing a window takes its saved state with it: a kill brings back only the other one.
        try NotesDemo.ctl("scene", "close", first)
        try NotesDemo.ctl("background")
        invocation = try Units.property(NotesDemo.unit, "InvocationID")
        try Command.expect(0, ["systemctl", "kill", "--signal=KILL", "--kill-whom=main", NotesDemo.unit])
        try NotesDemo.waitRelaunched(from: invocation)
        let left = try NotesDemo.sessions(try NotesDemo.json("scenes", "--json"))
        try #require(left == [second], "the windows after closing one and a kill")
    }

    @Test func sceneCommandsRefuseBadInputInOneLine() throws {
        try NotesDemo.ctl("wait-ready", "--timeout", "60")
        let unknown = try NotesDemo.ctl(status: 2, "--scene", "no-such-session", "tap", "attach")
        try #require(unknown.output.contains("no open scene has the session 'no-such-session'"), "an unknown session: \(unknown)")
        try #require(lineCount(unknown.output) == 1, "lines of the refusal: \(unknown)")
        try NotesDemo.ctl(status: 2, "scene", "close", "no-such-session")
        let background = try NotesDemo.ctl(status: 2, "--scene", "x", "background")
        try #require(background.output.contains("acts on the whole app"), "--scene on background: \(background)")
        // checkin-demo has one window and no scenes.
        let scenes = try Command.expect(1, ["relaunchctl", "app", "--app", "checkin-demo", "scenes"])
        try #require(scenes.output.contains("not scene-based"), "scenes of checkin-demo: \(scenes)")
        try #require(lineCount(scenes.output) == 1, "lines of the refusal: \(scenes)")
    }
}

/// notes-demo through `relaunchctl app --app notes-demo`.
enum NotesDemo {
    static let app = "notes-demo"
    static let unit = "notes-demo.service"

    /// `relaunchctl app --app notes-demo ARG...`; throws unless it exits `status`.
    @discardableResult
    static func ctl(status: Int32 = 0, _ arguments: String...) throws -> CommandResult {
        try Command.expect(status, ["relaunchctl", "app", "--app", app] + arguments)
    }

    /// What `relaunchctl app --app notes-demo ARG...` printed, read as JSON.
    static func json(_ arguments: String...) throws -> JSONValue {
        let said = try Command.expect(0, ["relaunchctl", "app", "--app", app] + arguments).stdout
        return try JSONDecoder().decode(JSONValue.self, from: Data(said.utf8))
    }

    /// The `session` of every element of an array (of scenes).
    static func sessions(_ scenes: JSONValue) throws -> [String] {
        guard case .array(let items) = scenes else { throw CheckFailure("expected an array of scenes, saw \(scenes)") }
        return items.map { $0["session"]?.string ?? "null" }
    }

    /// notes-demo stopped, its saved state and notes gone, photos reset, started again.
    static func fresh() throws {
        try Command.expect(0, ["systemctl", "stop", unit])
        for file in ["/var/lib/notes-demo/restoration.archive", "/var/lib/notes-demo/app.data"] {
            try? FileManager.default.removeItem(atPath: file)
        }
        try Command.expect(0, ["relaunchctl", "permission", "reset", app])
        try Command.expect(0, ["systemctl", "start", unit])
        try ctl("wait-ready", "--timeout", "60")
    }

    /// Returns once systemd runs an instance other than `invocation` and it is ready.
    static func waitRelaunched(from invocation: String) throws {
        try waitUntil("\(unit) relaunched (InvocationID other than \(invocation))") {
            let now = try Units.property(unit, "InvocationID")
            return (now != invocation, "InvocationID \(now)")
        }
        try ctl("wait-ready", "--timeout", "60")
    }
}
