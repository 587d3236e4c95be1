@testable import CheckIn
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Seed 002 end to end: preserve in the background, a new instance restores the same state.
@Suite("Seed scenario round trip")
struct SeedRoundTripTests {
    @Test("open-settings backgrounds the app and asks for preservation")
    func openSettingsEffects() throws {
        let app = launchedApp()
        let effects = try playSeedUntilSettings(app)
        #expect(effects == [.openSettings(.camera), .lifecycleChanged(.background), .preserveState])
        #expect(app.lifecycle == .background)
    }

    @Test("a new instance restores the same state, the modal navigation controller via the app delegate")
    func roundTrip() throws {
        let before = launchedApp()
        _ = try playSeedUntilSettings(before)
        let saved = before.state()
        let after = launchedApp(candidates: [try candidate(before)])
        let report = try #require(after.launchReport)

        #expect(report.outcome == .restored && report.discardReason == nil)
        #expect(comparable(after.state(), like: saved) == saved)
        #expect(comparable(after.state(), like: saved).json == saved.json, "the same state JSON but for the launch")
        #expect(report.presentedPath == SeedPath.modalNavigation)
        #expect(report.restored.map(\.path) == [
            SeedPath.tabs, SeedPath.venuesNavigation, SeedPath.venueList, SeedPath.checkIn, SeedPath.modalNavigation,
            SeedPath.modal,
        ])
        let via = after.state().restoredVia
        #expect(via[SeedPath.modalNavigation] == "appDelegate")
        for path in [SeedPath.tabs, SeedPath.checkIn, SeedPath.modal] { #expect(via[path] == "restorationClass") }
        #expect(via[SeedPath.venueList] == "existing")
        #expect(after.state().modal == .init(venue: "Blue Bottle Coffee", partySize: 4, note: "window seat, please", step: "denied"))
    }

    @Test("the note and the list's selection are saved by their views, not by their controllers")
    func viewsSaveTheirState() throws {
        let before = launchedApp()
        try before.tap("venue:tartine")
        _ = try playSeedUntilSettings(before)
        let archive = try ArchiveCodec.decode(try candidate(before).bytes).archive
        let modal = try #require(archive.controllers.first { $0.path.joined(separator: "/") == SeedPath.modal })
        #expect(modal.state["note"] == nil)
        let note = try #require(modal.views.first { $0.identifier == RestorationID.noteView })
        #expect(note.state[TextView.textKey] == .string("window seat, please"))
        #expect(note.state[TextView.selectionKey] == .strings(["19", "0"]), "the caret after the typed text")
        let list = try #require(archive.controllers.first { $0.path.joined(separator: "/") == SeedPath.venueList })
        #expect(list.state.isEmpty)
        let table = try #require(list.views.first { $0.identifier == RestorationID.venueTable })
        #expect(table.state[TableView.selectedIdentifiersKey] == .strings(["tartine"]))

        let after = launchedApp(candidates: [try candidate(before)])
        #expect(after.modal?.noteView.selectedRange == 19..<19)
        #expect(after.state().selectedVenue == "tartine")
    }

    @Test("the restored modal has its custom transition, hidden bar and the overlay set by hand")
    func customTransitionAndOverlay() throws {
        let before = launchedApp()
        _ = try playSeedUntilSettings(before)
        #expect(before.state().overlay == "dimmedBlur", "the animated presentation sets the overlay")
        let after = launchedApp(candidates: [try candidate(before)])
        let state = after.state()
        #expect(state.modalPresentationStyle == "custom")
        #expect(state.transitioningDelegate == "CheckInModalTransition")
        #expect(state.overlay == "dimmedBlur")
        let navigation = try #require(after.checkInTab?.presentedViewController as? NavigationController)
        #expect(navigation.isNavigationBarHidden)
        #expect(navigation.transitioningDelegate === after.modal)
        #expect(after.application.window.rootViewController === after.tabs, "the tab bar became the window's root")
    }

    @Test("restored at denied with the camera now allowed, the modal moves on to scan")
    func deniedThenAllowed() throws {
        let before = launchedApp(camera: .denied)
        _ = try playSeedUntilSettings(before)
        let after = launchedApp(camera: .allowed, candidates: [try candidate(before)])
        #expect(after.state().modal?.step == "scan")
        #expect(after.state().camera == "allowed")
    }

    @Test("the selected tab, the pushed venue detail and the list selection come back")
    func venuesTab() throws {
        let before = launchedApp()
        try before.tap("venue:tartine")
        let after = launchedApp(candidates: [try candidate(before)])
        let state = after.state()
        #expect(state.selectedTab == "venues")
        #expect(state.venueDetail == "tartine" && state.selectedVenue == "tartine")
        #expect(state.restoredVia[SeedPath.venueDetail] == "restorationClass")
        #expect(state.paths == before.state().paths)

        try after.tap("tab:check-in")
        let again = launchedApp(candidates: [try candidate(after)])
        #expect(again.state().selectedTab == "check-in")
    }

    @Test("a venue deleted since preservation restores no selection and no detail")
    func deletedVenue() throws {
        let before = launchedApp()
        try before.tap("venue:tartine")
        let remaining = Venue.catalog.filter { $0.id != "tartine" }
        let after = launchedApp(venues: remaining, candidates: [try candidate(before)])
        let state = after.state()
        #expect(state.selectedVenue == nil && state.venueDetail == nil)
        #expect(!state.paths.contains(SeedPath.venueDetail))
        #expect(after.launchReport?.warnings.contains { $0.contains("VenueDetailViewController was not restored") } == true)
    }

    @Test("the state JSON has the contract's keys, numbers as numbers and nulls for absent values")
    func jsonShape() throws {
        let app = launchedApp()
        let fresh = app.stateJSON()
        for fragment in [#""launch":{"outcome":"fresh","reason":null}"#, #""presented":null"#, #""modal":null"#,
                         #""lifecycle":"active""#, #""restoredVia":{}"#, #""lastExit":null"#] {
            #expect(fresh.contains(fragment), "\(fragment) in \(fresh)")
        }
        try app.tap("tab:check-in")
        try app.tap("check-in")
        app.lastExit = LastExit(permission: .camera, old: .denied, new: .allowed)
        let open = app.stateJSON()
        #expect(open.contains(#""partySize":2"#))
        #expect(open.contains(#""presented":"\#(SeedPath.modalNavigation)""#))
        #expect(open.contains(#""lastExit":{"new":"allowed","old":"denied","permission":"camera"}"#))
    }
}
