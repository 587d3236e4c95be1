@testable import Colorboard
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// Issue 11's check: any walk through the screens, with taps and typing chosen at random from
/// `elements()`, followed by background and a kill, comes back with the same state JSON apart from
/// launch, lifecycle, restoredVia and lastExit.
@Suite("Colorboard random walks")
struct ColorboardWalkTests {
    /// What a walk types: accepted values and refused ones (which must change nothing).
    static let texts = ["0", "1", "0.5", "0.25", "0.333", "Teal", "Sunset Orange", "", "2", "-1", "nan", "x", "  0.75 "]

    @Test("random walks come back the same after background and SIGKILL", arguments: 0..<40)
    func walk(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let host = FakeHost<ColorboardApp>()
        let photos: PermissionState = seed % 3 == 0 ? .allowed : .denied
        let app = try launchedApp(photos: photos)
        var steps: [String] = []
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            if app.lifecycle == .background {
                steps.append("foreground")
                try host.perform(app.foreground(), of: app)
                continue
            }
            let elements = app.elements()
            let element = try #require(elements.randomElement(using: &random), "the active app always offers something")
            if element.isField {
                let text = Self.texts.randomElement(using: &random) ?? ""
                steps.append("type \(element.name) '\(text)'")
                do { try host.perform(try app.type(element.name, text), of: app) } catch {}
            } else {
                steps.append("tap \(element.name)")
                try host.perform(try app.tap(element.name), of: app)
            }
        }
        try host.perform(app.background(), of: app)
        let before = app.state()

        let after = try launchedApp(photos: photos, data: host.data, archive: host.archive)
        #expect(
            comparableJSON(after.state()) == comparableJSON(before), "walk \(seed): \(steps.joined(separator: "; "))")
        #expect(after.launchReport?.outcome == .restored)
    }

    @Test("every element the screen offers is accepted there, and only those")
    func elementsAreAccepted() throws {
        let app = try launchedApp()
        try addColor(app)
        try app.tap("save-swatch")
        let names = Set(app.elements().map(\.name))
        #expect(names == ["done", "cancel", "save-swatch", "open-settings", "name", "red", "green", "blue"])
        let error = #expect(throws: ColorboardInputError.self) { try app.tap("back") }
        #expect(error?.description.contains("on screen: done, cancel, save-swatch, open-settings") == true)
        #expect(throws: ColorboardInputError.self) { try app.type("red", "1.5") }
        #expect(app.state().editor?.red == 0)
        app.background()
        #expect(app.elements().isEmpty)
        #expect(throws: ColorboardInputError.inBackground) { try app.tap("done") }
    }
}

/// The screen drawn for people.
@Suite("Colorboard screen")
struct ColorboardScreenTests {
    @Test("the list, the pushed editor and the new color's card, in the same phone frame as every app")
    func screens() throws {
        let app = try launchedApp()
        var screens = [app.screen()]
        #expect(screens[0].contains("[add]") && screens[0].contains("color:c1") && screens[0].contains("#0000FF"))
        try app.tap("color:c1")
        screens.append(app.screen())
        #expect(screens[1].contains("[back]") && screens[1].contains("blue   1.00"))
        try app.tap("back")
        try addColor(app)
        try app.tap("save-swatch")
        screens.append(app.screen())
        #expect(screens[2].contains("[cancel] [done]") && screens[2].contains("[open-settings]") && screens[2].contains("░"))
        for screen in screens {
            let lines = screen.split(separator: "\n")
            #expect(lines.first?.hasPrefix("╭") == true && lines.last?.hasPrefix("╰") == true)
            #expect(Set(lines.map(\.count)) == [PhoneFrame.width + 2], "every line is as wide as the frame")
            #expect(lines.count == PhoneFrame.bodyHeight + 6)
        }
    }

    @Test("after restoration the screen is the one the user left")
    func restoredScreen() throws {
        let before = try launchedApp()
        try addColor(before)
        let after = try relaunched(before)
        #expect(after.screen() == before.screen())
    }

    @Test("the state JSON has the common keys with nulls for absent values, and the app's own")
    func jsonShape() throws {
        let app = try launchedApp()
        let json = app.stateJSON()
        for fragment in [
            #""launch":{"outcome":"fresh","reason":null}"#, #""presented":null"#, #""editor":null"#, #""lastExit":null"#,
            #""lifecycle":"active""#, #""restoredVia":{}"#, #""permissions":{"photos":"denied"}"#,
            #""paths":["PaletteNavigationController","PaletteNavigationController/BNRPaletteViewController"]"#,
            ##""colors":[{"blue":1,"green":0,"hex":"#0000FF","id":"c1","name":"Blue","red":0}]"##,
        ] {
            #expect(json.contains(fragment), "\(fragment) in \(json)")
        }
        app.lastExit = LastExit(permission: .photos, old: .denied, new: .allowed)
        #expect(app.stateJSON().contains(#""lastExit":{"new":"allowed","old":"denied","permission":"photos"}"#))
    }
}
