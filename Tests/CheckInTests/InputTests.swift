@testable import CheckIn
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Taps and typing: what each does, and errors that say what is accepted.
@Suite("Check-in input")
struct InputTests {
    private func appWithModal(camera: PermissionState = .denied) throws -> CheckInApp {
        let app = launchedApp(camera: camera)
        try app.tap("tab:check-in")
        try app.tap("check-in")
        return app
    }

    @Test("an unknown element says which are accepted")
    func unknownElement() {
        let error = #expect(throws: InputError.self) { try launchedApp().tap("bogus") }
        #expect(error == .unknownElement("bogus"))
        #expect(error?.description.contains("tab:venues, tab:check-in, check-in, scan, open-settings, done, venue:ID") == true)
    }

    @Test("an unknown venue lists the venue ids")
    func unknownVenue() {
        let error = #expect(throws: InputError.self) { try launchedApp().tap("venue:nowhere") }
        #expect(error?.description.contains("venue:blue-bottle") == true)
    }

    @Test("an element not on screen now says what is on screen")
    func notOnScreen() {
        let error = #expect(throws: InputError.self) { try launchedApp().tap("scan") }
        guard case .notOnScreen(_, let onScreen)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(onScreen.starts(with: ["tab:venues", "tab:check-in", "venue:blue-bottle"]))
    }

    @Test("an unknown field says which are accepted")
    func unknownField() throws {
        let error = #expect(throws: InputError.self) { try appWithModal().type("colour", "red") }
        #expect(error?.description.contains("venue, party-size, note") == true)
    }

    @Test("party size must be a whole number from 1 to 20", arguments: ["0", "21", "two", "", "2.5", "-1"])
    func badPartySize(_ text: String) throws {
        let app = try appWithModal()
        #expect(throws: InputError.invalidPartySize(text)) { try app.type("party-size", text) }
        #expect(app.state().modal?.partySize == 2)
    }

    @Test("party size accepts 1 to 20, spaces around allowed")
    func goodPartySize() throws {
        let app = try appWithModal()
        try app.type("party-size", " 20 ")
        #expect(app.state().modal?.partySize == 20)
    }

    @Test("typing needs the form on screen and the app in front")
    func typingNeedsForm() throws {
        let app = launchedApp()
        #expect(throws: InputError.formNotOnScreen) { try app.type("note", "hi") }
        app.background()
        #expect(throws: InputError.inBackground) { try app.tap("tab:check-in") }
    }

    @Test("scan moves to scan when the camera is allowed, else to denied", arguments: [
        (PermissionState.allowed, "scan"), (.denied, "denied"), (.notDetermined, "denied"),
    ])
    func scan(camera: PermissionState, step: String) throws {
        let app = try appWithModal(camera: camera)
        try app.tap("scan")
        #expect(app.state().modal?.step == step)
    }

    @Test("coming back with the camera allowed moves denied on to scan")
    func foregroundAfterSettings() throws {
        let app = try appWithModal()
        try app.tap("scan")
        _ = try app.tap("open-settings")
        app.setCamera(.allowed)
        #expect(app.state().modal?.step == "denied", "nothing changes while in the background")
        #expect(app.foreground() == [.lifecycleChanged(.active)])
        #expect(app.state().modal?.step == "scan")
    }

    @Test("done dismisses the modal")
    func done() throws {
        let app = try appWithModal()
        try app.tap("done")
        #expect(app.state().modal == nil && app.state().presented == nil)
    }

    @Test("tapping a venue pushes its detail; tab:venues goes back to the list")
    func venues() throws {
        let app = launchedApp()
        try app.tap("venue:dolores-park")
        #expect(app.state().venueDetail == "dolores-park")
        #expect(throws: InputError.self) { try app.tap("venue:tartine") }
        try app.tap("tab:venues")
        #expect(app.state().venueDetail == nil && app.state().selectedVenue == "dolores-park")
    }

    @Test("check-in pre-fills the venue selected in the list")
    func prefill() throws {
        let app = launchedApp()
        try app.tap("venue:tartine")
        try app.tap("tab:check-in")
        try app.tap("check-in")
        #expect(app.state().modal?.venue == "Tartine Bakery")
    }
}
