@testable import Countries
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// Seed 004: what comes back after a kill, and what must not.
@Suite("Countries restoration")
struct RestorationTests {
    @Test("the table's scroll position and selection, the pushed capital and the tab come back")
    func pushedCountry() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "scroll-down")
        try host.tap(before, "scroll-down")
        try host.tap(before, "country:Brussels")
        #expect(before.state().countryDetail == "Brussels")
        try host.background(before)
        let after = try host.relaunch()
        let state = after.state()

        #expect(state.common.launchOutcome == "restored")
        #expect(comparableJSON(state) == comparableJSON(before.state()))
        #expect(state.selectedCapital == "Brussels" && state.selectedCountry == "Belgium")
        #expect(state.countryDetail == "Brussels")
        #expect(state.firstVisibleCapital == Country.catalog[20].capital && state.scrollOffset == 20 * 44)
        #expect(state.common.paths == [
            CountriesPath.tabs, CountriesPath.countriesNavigation, CountriesPath.table, CountriesPath.country,
            CountriesPath.settingsNavigation, CountriesPath.settings,
        ])
        #expect(state.common.restoredVia == [
            CountriesPath.tabs: "existing", CountriesPath.countriesNavigation: "existing", CountriesPath.table: "existing",
            CountriesPath.country: "restorationClass", CountriesPath.settingsNavigation: "existing",
            CountriesPath.settings: "existing",
        ])
        #expect(after.screen().contains("Brussels"))
    }

    @Test("the settings tab comes back selected, the table under it where it was")
    func settingsTab() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "scroll-down")
        try host.tap(before, "country:Canberra")
        try host.tap(before, "back")
        try host.tap(before, "tab:settings")
        try host.background(before)
        let state = try host.relaunch().state()
        #expect(state.selectedTab == "settings")
        #expect(state.countryDetail == nil && state.selectedCapital == "Canberra")
        #expect(!state.common.paths.contains(CountriesPath.country))
        #expect(comparableJSON(state) == comparableJSON(before.state()))
    }

    @Test("the switch is in the defaults, not the archive: a force quit loses the UI state but not the switch")
    func switchSurvivesForceQuit() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "tab:settings")
        try host.tap(before, "switch")
        #expect(host.data == Array("amazing=0\n".utf8))
        try host.background(before)
        let archive = try ArchiveCodec.decode(try #require(host.archive)).archive
        for record in archive.controllers {
            #expect(record.state[Switch.isOnKey] == nil)
            #expect(record.views.allSatisfy { $0.state[Switch.isOnKey] == nil }, "no switch state in \(record.path)")
        }

        let again = try host.relaunch()
        #expect(again.state().selectedTab == "settings" && again.state().amazing == false)
        try host.perform(again.forceQuit(), of: again)
        #expect(host.terminated && host.archive == nil)
        let fresh = try host.relaunch()
        #expect(fresh.state().common.launchOutcome == "fresh")
        #expect(fresh.state().selectedTab == "countries", "the UI state is lost")
        #expect(fresh.state().amazing == false, "the switch is not")
        #expect(fresh.settings?.amazingSwitch.isOn == false)
    }

    @Test("a row deleted from the data between launches restores nothing: no selection, no pushed capital")
    func deletedSelectedRow() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "scroll-down")
        try host.tap(before, "country:Canberra")
        try host.background(before)
        let after = try host.relaunch(countries: Country.excluding("Australia", from: Country.catalog))
        let state = after.state()
        #expect(state.common.launchOutcome == "restored")
        #expect(state.countryCount == Country.catalog.count - 1)
        #expect(state.selectedCapital == nil)
        #expect(state.countryDetail == nil)
        #expect(!state.common.paths.contains(CountriesPath.country))
        #expect(state.common.restoredVia[CountriesPath.country] == nil)
        #expect(after.launchReport?.warnings.contains { $0.contains("CountryViewController was not restored") } == true)
    }

    @Test("a deleted first visible row restores no scroll position; a row deleted above it moves nothing on screen")
    func deletedRows() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "scroll-down")
        try host.tap(before, "country:Yerevan")
        try host.tap(before, "back")
        try host.background(before)
        #expect(before.state().firstVisibleCapital == "Buenos Aires")

        let firstGone = try host.relaunch(countries: Country.excluding("Argentina", from: Country.catalog)).state()
        #expect(firstGone.firstVisibleCapital == Country.catalog[0].capital && firstGone.scrollOffset == 0)
        #expect(firstGone.selectedCapital == "Yerevan")

        let aboveGone = try host.relaunch(countries: Country.excluding("Afghanistan", from: Country.catalog))
        #expect(aboveGone.state().firstVisibleCapital == "Buenos Aires" && aboveGone.state().scrollOffset == 9 * 44)
        #expect(aboveGone.state().selectedCapital == "Yerevan")
        #expect(aboveGone.table?.selectedRow == 10, "the selection moved up a row with its country")
    }

    @Test("a location change updates the app in place: same hierarchy, new permission on screen and in the state")
    func locationInPlace() throws {
        let host = FakeHost<CountriesApp>()
        let app = try host.relaunch(location: .notDetermined)
        try host.tap(app, "tab:settings")
        let before = app.state()
        app.setPermission(.location, to: .allowed)
        let after = app.state()
        #expect(after.common.permissions == [.location: .allowed] && before.common.permissions == [.location: .notDetermined])
        #expect(after.common.paths == before.common.paths && after.selectedTab == before.selectedTab && after.common.lifecycle == "active")
        #expect(app.screen().contains("location allowed"))
        app.setPermission(.camera, to: .denied)
        #expect(app.state() == after, "permissions the app does not use change nothing")
    }

    @Test("precise location turned off: the app keeps running and says approximate")
    func approximateInPlace() throws {
        let host = FakeHost<CountriesApp>()
        let app = try host.relaunch(location: .allowed)
        try host.tap(app, "tab:settings")
        let before = app.state()
        app.setPermission(.location, to: .whileUsingApproximate)
        #expect(app.state().common.permissions == [.location: .whileUsingApproximate])
        #expect(app.state().common.paths == before.common.paths && app.state().common.lifecycle == "active")
        #expect(app.screen().contains("location approximate"))
        app.setPermission(.location, to: .alwaysApproximate)
        #expect(app.screen().contains("always, approximate"))
    }

    @Test("a damaged archive is discarded as corrupt; the defaults stay")
    func corruptArchive() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "tab:settings")
        try host.tap(before, "switch")
        try host.background(before)
        var bytes = try #require(host.archive)
        bytes[bytes.count / 2] ^= 0x5a
        host.archive = bytes
        let after = try host.relaunch()
        #expect(after.state().common.launchOutcome == "discarded" && after.state().common.launchReason == "corrupt")
        #expect(after.state().selectedTab == "countries" && after.state().amazing == false)
    }

    @Test("an archive of another build is discarded (build-mismatch)")
    func otherBuild() throws {
        let host = FakeHost<CountriesApp>()
        let before = try host.relaunch()
        try host.tap(before, "tab:settings")
        try host.background(before)
        let after = try host.relaunch(build: "2")
        #expect(after.state().common.launchOutcome == "discarded" && after.state().common.launchReason == "build-mismatch")
    }
}
