import FoundationEssentials
import RelaunchContract
import ScenarioKit
import Testing

/// Step forms and line shapes the parser tests above do not reach.
@Suite("Step forms")
struct StepFormsTests {
    func steps(_ text: String) throws -> [Step] {
        try Scenario.parse(text, name: "s").steps.map(\.step)
    }

    @Test("reset takes one permission or none")
    func reset() throws {
        #expect(try steps("reset\nreset camera\n") == [.resetPermissions(nil), .resetPermissions(.camera)])
        let error = #expect(throws: ScenarioError.self) { try steps("reset camera photos\n") }
        #expect(error?.description == "s:1: expected: reset [PERMISSION]")
    }

    @Test("expect kill and expect no-kill are two expectations")
    func killExpectations() throws {
        #expect(try steps("expect kill\nexpect no-kill\n") == [.expectKill, .expectNoKill])
    }

    @Test("a repeat that nests a repeat without a step is refused with the form")
    func repeatWithoutStep() throws {
        for line in ["repeat 2 repeat 3", "repeat 2 repeat", "repeat 2 repeat 3 repeat 4"] {
            let error = #expect(throws: ScenarioError.self) { try steps(line + "\n") }
            #expect(error?.description == "s:1: expected: repeat N STEP... (N from 1 to 1000)", "\(line)")
        }
    }

    @Test("quotes group the first word of a line too")
    func quotedVerb() throws {
        #expect(try steps(#""tap" "check in""# + "\n") == [.tap("check in")])
    }

    @Test("lines indented with tabs or blanks: comments still describe the scenario, steps still parse")
    func indentedLines() throws {
        let scenario = try Scenario.parse("\t# Tabbed summary\n  # and a blank one\n\ttap check-in\n", name: "s")
        #expect(scenario.summary == "Tabbed summary and a blank one")
        #expect(scenario.steps.map(\.step) == [.tap("check-in")])
        #expect(scenario.texts[3] == "tap check-in")
    }

    @Test("numbers read as scenario text: integers bare, fractions and large numbers as written")
    func numbers() throws {
        let state = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a": 2.5, "b": -3, "c": 1e20, "d": 1e15}"#.utf8))
        #expect(state.value(at: "a")?.scalarText == "2.5")
        #expect(state.value(at: "b")?.scalarText == "-3")
        #expect(state.value(at: "c")?.scalarText == "1e+20")
        #expect(state.value(at: "d")?.scalarText == "1000000000000000.0")
    }
}
