import FoundationEssentials
import RelaunchContract
import ScenarioKit
import Testing

@Suite("Scenario files")
struct ScenarioParserTests {
    @Test("A file with CRLF line ends parses as one with LF, with the same line numbers")
    func crlf() throws {
        let text = "# Windows line ends\npolicy ios\n\nset camera denied\ntap check-in\n"
        let lf = try Scenario.parse(text, name: "lf")
        let crlf = try Scenario.parse(text.replacing("\n", with: "\r\n"), name: "crlf")
        #expect(crlf.steps.map(\.line) == [2, 4, 5])
        #expect(crlf.steps.map(\.step) == lf.steps.map(\.step))
        #expect(crlf.summary == "Windows line ends")
    }

    @Test("The seed scenario parses into its steps with line numbers")
    func seed() throws {
        let text = """
        # The seed: allow the camera from Settings.
        # The modal must come back.
        policy ios
        set camera denied   # before the app asks
        tap check-in
        type note "Window seat, \\"quiet\\" please"
        expect state modal.step denied
        expect journal app-killed UNIT=checkin-demo.service SIGNAL=KILL
        expect no-journal saved-state-discarded
        repeat 3 kill-app
        screen
        quit --force
        build default
        """
        let scenario = try Scenario.parse(text, name: "seed")
        #expect(scenario.summary == "The seed: allow the camera from Settings. The modal must come back.")
        #expect(scenario.steps.map(\.line) == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
        #expect(scenario.texts[4] == "set camera denied   # before the app asks")
        #expect(scenario.texts[6] == #"type note "Window seat, \"quiet\" please""#)
        #expect(scenario.steps.map(\.step) == [
            .policy(.ios),
            .setPermission(.camera, .denied),
            .tap("check-in"),
            .type(field: "note", text: "Window seat, \"quiet\" please"),
            .expectState(path: "modal.step", value: "denied"),
            .expectJournal(.appKilled, fields: ["UNIT": "checkin-demo.service", "SIGNAL": "KILL"], present: true),
            .expectJournal(.savedStateDiscarded, fields: [:], present: false),
            .repeat(3, .killApp),
            .screen,
            .quit(force: true),
            .setBuild(nil),
        ])
    }

    @Test("Blank lines count: a step's line number and an error's are the file's own")
    func blankLinesCount() throws {
        let scenario = try Scenario.parse("policy ios\n\n\ntap check-in\n\n", name: "s")
        #expect(scenario.steps.map(\.line) == [1, 4])
        let error = #expect(throws: ScenarioError.self) { try Scenario.parse("tap check-in\n\nset camera maybe\n", name: "s") }
        #expect(error?.line == 3)
    }

    @Test("Bad lines name the line and what is accepted", arguments: [
        ("set camera maybe", "s:1: unknown state 'maybe'; accepted: allowed, denied, not-determined, limited, add-only, write-only, while-using-approximate, always, always-approximate, provisional, allowed-once, none, full, never, while-using"),
        ("set torch allowed", "s:1: unknown permission 'torch'; accepted: camera, microphone, photos, contacts, calendars, location, notifications"),
        ("policy windows", "s:1: unknown kill policy 'windows'; accepted: ios, android"),
        ("fly away", "s:1: unknown step 'fly'; accepted: app, policy, profile, one-time-delay, set, reset, tap, type, background, foreground, quit, wait-ready, screen, restart-app, stop-app, start-app, kill-app, expect, build, env, corrupt-archive, hook, repeat, scene"),
        ("env COUNTRIES", "s:1: expected: env NAME=VALUE"),
        ("env A=1 B=2", "s:1: expected: env NAME=VALUE"),
        ("env 1X=a", "s:1: '1X' is not a variable name; use letters, digits and _, not starting with a digit"),
        ("env =a", "s:1: '' is not a variable name; use letters, digits and _, not starting with a digit"),
        ("env A-B=a", "s:1: 'A-B' is not a variable name; use letters, digits and _, not starting with a digit"),
        ("type note \"open", "s:1: a double quote is not closed"),
        ("repeat 0 kill-app", "s:1: expected: repeat N STEP... (N from 1 to 1000)"),
        ("expect journal nothing", "s:1: unknown journal event 'nothing'; accepted: app-launched, lifecycle-changed, state-preserved, view-controller-restored, restoration-finished, saved-state-discarded, scene-session-restored, permission-changed, app-killed, unit-exited, unit-restart-scheduled, unit-started, unit-failed"),
        ("expect journal app-killed =x", "s:1: '=x' is not FIELD=VALUE"),
        ("background now", "s:1: expected: background takes no arguments"),
        ("# only a comment", "s: the scenario has no steps"),
    ])
    func errors(line: String, message: String) {
        #expect(throws: ScenarioError.self) { try Scenario.parse(line, name: "s") }
        do {
            _ = try Scenario.parse(line, name: "s")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("env sets a variable of the app's unit; an empty value unsets it; quotes group a value with blanks")
    func environment() throws {
        let scenario = try Scenario.parse("""
            app countries-demo
            env COUNTRIES_DEMO_EXCLUDE="Australia,New Zealand"
            env COUNTRIES_DEMO_EXCLUDE=
            """, name: "env")
        #expect(scenario.steps.map(\.step) == [
            .app("countries-demo"),
            .setEnvironment(name: "COUNTRIES_DEMO_EXCLUDE", value: "Australia,New Zealand"),
            .setEnvironment(name: "COUNTRIES_DEMO_EXCLUDE", value: ""),
        ])
    }

    @Test("the env drop-in quotes each value for systemd: backslashes, quotes and % escaped")
    func environmentDropIn() {
        let text = ScenarioRunner.environmentDropInText(["B": #"a "b" \ 100%"#, "A": "New Zealand"])
        #expect(text == #"""
            [Service]
            Environment="A=New Zealand"
            Environment="B=a \"b\" \\ 100%%"

            """#)
    }

    @Test("Every journal event maps to a distinct 32-hex MESSAGE_ID")
    func events() {
        let ids = JournalEvent.allCases.map(\.messageID)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 32 })
        #expect(JournalEvent.allCases.filter(\.isManagerEvent).count == 4)
    }
}

@Suite("State key paths")
struct JSONValuePathTests {
    let state: JSONValue
    init() throws {
        let json = """
        {"launch": {"outcome": "restored", "reason": null}, "modal": {"partySize": 2, "note": "a.b"},
         "restoredVia": {"TabViewController/CheckInViewController": "restorationClass"},
         "paths": ["TabViewController", "X"], "lifecycle": "active", "ok": true}
        """
        state = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    @Test("Key paths read nested values as scenario text", arguments: [
        ("launch.outcome", "restored"), ("launch.reason", "null"), ("modal.partySize", "2"),
        ("modal.note", "a.b"), ("restoredVia.\"TabViewController/CheckInViewController\"", "restorationClass"),
        ("paths.1", "X"), ("ok", "true"),
    ])
    func paths(path: String, expected: String) {
        #expect(state.value(at: path)?.scalarText == expected)
    }

    @Test("Absent paths are nil")
    func absent() {
        #expect(state.value(at: "modal.missing") == nil)
        #expect(state.value(at: "paths.9") == nil)
        #expect(state.value(at: "lifecycle.deeper") == nil)
    }
}

@Suite("the app step")
struct AppStepTests {
    @Test("`app APP` parses to the app to drive; a bad id is refused with its line")
    func appStep() throws {
        let scenario = try Scenario.parse("app notes-py\nbackground\n", name: "s")
        #expect(scenario.steps.map(\.1) == [.app("notes-py"), .background])
        #expect(throws: (any Error).self) { try Scenario.parse("app Not/An/Id\n", name: "s") }
        #expect(throws: (any Error).self) { try Scenario.parse("app\n", name: "s") }
    }
}
