@testable import Countries
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Elements, taps and the screen.
@Suite("Countries input and screen")
struct InputTests {
    @Test("every screen lists what it accepts, and each listed element can be tapped")
    func elements() throws {
        let app = launchedApp()
        let names = app.elements().map(\.name)
        #expect(Array(names.prefix(3)) == ["tab:countries", "tab:settings", "scroll-down"])
        #expect(names.count == 3 + 10 && names.contains("country:Kabul"))
        #expect(app.elements().allSatisfy { !$0.isField && !$0.description.isEmpty })
        try app.tap("country:Kabul")
        #expect(app.elements().map(\.name) == ["tab:countries", "tab:settings", "back"])
        try app.tap("tab:settings")
        #expect(app.elements().map(\.name) == ["tab:countries", "tab:settings", "switch", "open-settings"])
        try app.tap("tab:countries")
        try app.tap("tab:countries")
        #expect(app.state().countryDetail == nil, "tapping the selected tab again pops to the table")
        for _ in 0..<30 { _ = try? app.tap("scroll-down") }
        #expect(app.elements().map(\.name).contains("scroll-up") && !app.elements().map(\.name).contains("scroll-down"))
        #expect(app.elements().map(\.name).last == "country:\(Country.catalog.last!.capital)")
    }

    @Test("bad input says what is accepted, in one line")
    func badInput() throws {
        let app = launchedApp()
        #expect(throws: InputError.unknownElement("fly")) { try app.tap("fly") }
        #expect(throws: InputError.unknownCountry("Atlantis")) { try app.tap("country:Atlantis") }
        #expect(throws: InputError.notOnScreen("back", onScreen: app.onScreenElements().map(\.name))) { try app.tap("back") }
        #expect(throws: InputError.self) { try app.tap("country:Harare") }
        #expect(throws: InputError.noFields("note")) { try app.type("note", "x") }
        let long = String(repeating: "x", count: 500)
        let message = InputError.unknownElement(long).description
        #expect(!message.contains("\n") && !message.contains(String(repeating: "x", count: 65)))
    }

    @Test("open-settings sends the app to the background for location; then it takes no input")
    func openSettings() throws {
        let app = launchedApp()
        try app.tap("tab:settings")
        #expect(try app.tap("open-settings") == [.openSettings(.location), .lifecycleChanged(.background), .preserveState])
        #expect(app.elements().isEmpty)
        #expect(throws: InputError.inBackground) { try app.tap("tab:countries") }
        #expect(app.foreground() == [.lifecycleChanged(.active)])
    }

    @Test("the screen is drawn in the shared phone frame, every line as wide")
    func screen() throws {
        let app = launchedApp(location: .denied)
        for step in ["", "scroll-down", "country:Canberra", "tab:settings"] {
            if !step.isEmpty { try app.tap(step) }
            let lines = app.screen().split(separator: "\n")
            #expect(lines.first?.hasPrefix("╭") == true && lines.last?.hasPrefix("╰") == true)
            #expect(Set(lines.map(\.count)).count == 1, "after \(step): every line is as wide as the frame")
            #expect(lines.count == 2 + 1 + 1 + PhoneFrame.bodyHeight + 1 + 1)
        }
        #expect(app.screen().contains("[■ on ] switch") && app.screen().contains("location denied"))
    }
}
