import ScenarioKit
import Testing

/// Nested `repeat`s are bounded in total, not only per line (issue 20): `repeat 1000 repeat 1000
/// repeat 1000 kill-app` was a billion kills.
@Suite("Scenario repeat bounds")
struct RepeatBoundTests {
    @Test("a repeat's steps count as many as it plays")
    func expandedCount() throws {
        let scenario = try Scenario.parse("repeat 10 repeat 20 kill-app\nrepeat 3 screen\nscreen\n", name: "s")
        #expect(scenario.steps.map(\.step.expandedCount) == [200, 3, 1])
    }

    @Test("nested repeats over the total bound are refused with one line naming the line")
    func totalBound() throws {
        let text = "screen\nrepeat 1000 repeat 99 screen\nrepeat 1000 repeat 1000 repeat 1000 kill-app\n"
        let error = #expect(throws: ScenarioError.self) { _ = try Scenario.parse(text, name: "s") }
        #expect(error?.line == 3)
        #expect(error?.description == "s:3: this line takes the scenario over 100000 steps in all, repeats expanded; repeat less")
        #expect(error?.description.contains("\n") == false)
    }

    @Test("lines that each stay under the bound are refused once together they pass it")
    func boundAcrossLines() throws {
        #expect(try Scenario.parse("repeat 1000 repeat 100 screen\n", name: "s").steps.count == 1)
        let error = #expect(throws: ScenarioError.self) {
            _ = try Scenario.parse("repeat 1000 repeat 100 screen\n# more\nrepeat 1 screen\n", name: "s")
        }
        #expect(error?.line == 3)
    }

    @Test("repeats nested deeper than eight are refused before they are parsed")
    func nestingBound() throws {
        let deep = String(repeating: "repeat 1 ", count: 50_000) + "screen"
        let error = #expect(throws: ScenarioError.self) { _ = try Scenario.parse(deep, name: "s") }
        #expect(error?.description == "s:1: 50000 repeats are nested on this line; at most 8 are accepted")
        #expect(try Scenario.parse(String(repeating: "repeat 2 ", count: 8) + "screen", name: "s").steps[0].step.expandedCount == 256)
    }
}
