import ScenarioKit
import Testing

/// `scene` steps: windows of a scene-based app named by their place (session ids are random).
@Suite("Scene steps")
struct SceneStepTests {
    @Test("scene open, close and aimed tap, type and screen parse into their steps")
    func parses() throws {
        let text = """
        app notes-demo
        scene open
        scene 2 type body "Harbour at noon"
        scene 2 tap attach
        scene 1 screen
        scene close 1
        """
        let scenario = try Scenario.parse(text, name: "scenes")
        #expect(scenario.steps.map(\.step) == [
            .app("notes-demo"),
            .openScene,
            .inScene(2, .type(field: "body", text: "Harbour at noon")),
            .inScene(2, .tap("attach")),
            .inScene(1, .screen),
            .closeScene(1),
        ])
    }

    @Test("a scene step that names no window, window 0, or aims anything but tap, type or screen is refused",
          arguments: ["scene", "scene 0 tap attach", "scene x tap attach", "scene close", "scene close 0",
                      "scene open 2", "scene 1 background", "scene 1 repeat 2 tap attach", "scene 1"])
    func refuses(line: String) throws {
        let error = #expect(throws: ScenarioError.self) { try Scenario.parse(line + "\n", name: "s") }
        #expect(error?.line == 1)
        #expect(error.map { !$0.message.contains("\n") } == true)
    }

    @Test("an aimed screen only looks; an aimed tap acts")
    func acts() {
        #expect(!Step.inScene(1, .screen).acts)
        #expect(Step.inScene(1, .tap("attach")).acts)
        #expect(Step.openScene.acts)
        #expect(!Step.closeScene(1).isExpectation)
    }
}
