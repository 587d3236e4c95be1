import Foundation
import RelaunchContract
import RelaunchTestSupport
import Testing

/// Issue 34: text an app wrote reaches the reader's terminal inert. The app is asked to show a terminal
/// escape sequence (set the window title to "pwned", ring the bell, clear the screen); relaunchctl's
/// text output prints it escaped (\x1b]0;pwned\a\x1b[2J) and keeps the screen's lines, while --json
/// keeps it exact. A host name with the same sequence: Tests/RelaunchctlTests/InertTextEndToEndTests.
@Suite(.serialized, .enabled(if: Inside.sandbox, Inside.reason))
struct InertTextChecks {
    static let attack = "\u{1b}]0;pwned\u{07}\u{1b}[2J"
    static let shown = #"\x1b]0;pwned\a\x1b[2J"#

    @Test func relaunchctlPrintsAnAppsEscapeSequenceInert() throws {
        try Self.freshCheckIn()
        try Command.expect(0, ["relaunchctl", "app", "tap", "tab:check-in"])
        try Command.expect(0, ["relaunchctl", "app", "tap", "check-in"])
        let before = try Command.expect(0, ["relaunchctl", "app", "screen"]).stdout
        try Command.expect(0, ["relaunchctl", "app", "type", "note", Self.attack])
        // The app keeps what was typed, byte for byte: JSON is the exact form.
        let json = try Command.expect(0, ["relaunchctl", "app", "state", "--json"]).stdout
        let note = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)).value(at: "modal.note")?.string
        try #require(note == Self.attack, "the note in --json")
        try Self.requireInert(json, "relaunchctl app state --json (JSON escapes it its own way)")

        let screen = try Command.expect(0, ["relaunchctl", "app", "screen"]).stdout
        try Self.requireInert(screen, "relaunchctl app screen")
        try #require(screen.contains("note        \(Self.shown)"), "relaunchctl app screen: \(screen)")
        try #require(screen.contains("╭"), "the screen's box drawing, printed as it is: \(screen)")
        try #require(lineCount(before) == lineCount(screen), "the screen's line count (its lines are kept)")

        let state = try Command.expect(0, ["relaunchctl", "app", "state"]).stdout
        try Self.requireInert(state, "relaunchctl app state")
        try #require(state.contains("note:       \(Self.shown)"), "relaunchctl app state: \(state)")
    }

    @Test func relaunchctlPrintsASceneTitleInert() throws {
        try NotesDemo.fresh()
        let first = try NotesDemo.json("scenes", "--json").value(at: "0.session")?.string ?? "null"
        try NotesDemo.ctl("--scene", first, "type", "title", "Trip\(Self.attack)")
        let scenes = try NotesDemo.ctl("scenes").stdout
        try Self.requireInert(scenes, "relaunchctl app scenes")
        try #require(scenes.contains("Trip\(Self.shown)"), "relaunchctl app scenes: \(scenes)")
        let title = try NotesDemo.json("scenes", "--json").value(at: "0.title")?.string
        try #require(title == "Trip\(Self.attack)", "the title in --json")
        try Self.requireInert(try NotesDemo.ctl("--scene", first, "screen").stdout, "relaunchctl app --app notes-demo screen")
    }

    /// Throws unless `text` holds no C0 control but the line feed, no DEL and no C1 control; says on
    /// how many lines it found one, and those lines with their controls escaped.
    static func requireInert(_ text: String, _ what: String) throws {
        func raw(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\n") || (0x7f...0x9f).contains(scalar.value)
        }
        let lines = text.split(separator: "\n").filter { $0.unicodeScalars.contains(where: raw) }
        guard lines.isEmpty else {
            let shown = lines.prefix(5).map { line in
                line.unicodeScalars.map { scalar in raw(scalar) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar) }.joined()
            }
            throw CheckFailure("\(what) holds raw control characters on \(lines.count) line(s): \(shown)")
        }
    }

    /// checkin-demo launched fresh (no saved state, every permission not-determined), whatever earlier
    /// checks left on screen or in permissiond.
    static func freshCheckIn() throws {
        _ = try Command.run(["relaunchctl", "app", "quit", "--force"])
        try Command.expect(0, ["systemctl", "stop", Permissiond.unit])
        try Command.expect(0, ["relaunchctl", "permission", "reset", Permissiond.app])
        _ = try Command.run(["systemctl", "reset-failed", Permissiond.unit])
        try Command.expect(0, ["systemctl", "start", Permissiond.unit])
        try Command.expect(0, ["relaunchctl", "app", "wait-ready"])
    }
}
