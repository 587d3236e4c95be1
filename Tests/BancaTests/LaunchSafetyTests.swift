@testable import Banca
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// What is thrown away and what is kept: saved state goes with a force quit, a corrupt archive or
/// another build; the currencies, the data model, stay.
@Suite("Banca launch safety")
struct LaunchSafetyTests {
    /// A device whose app picked GBP to convert to and left the currency list open in the background.
    private func listInBackground() throws -> (Device, BancaApp, ArchiveCandidate) {
        let device = Device()
        let app = try device.launch()
        try app.type("amount", "99")
        try device.tap(app, "currencies:to")
        try device.tap(app, "scroll-down")
        try device.tap(app, "currency:GBP")
        app.background()
        return (device, app, try candidate(app))
    }

    @Test("a corrupt archive is discarded as corrupt; the app launches fresh with the saved currencies")
    func corrupt() throws {
        var (device, _, archive) = try listInBackground()
        archive.bytes[archive.bytes.count / 2] ^= 0x01
        let app = try device.launch(candidates: [archive])
        let report = try #require(app.launchReport)
        #expect(report.outcome == .discarded && report.discardReason == .corrupt)
        #expect(report.actions == [.discardSavedState(.corrupt)])
        let state = app.state()
        #expect(state.common.presented == nil && state.amount == "" && state.currencyList == nil)
        #expect(state.currencies == ["from": "EUR", "to": "GBP"], "the data model is not in the archive")
        #expect(app.stateJSON().contains(#""launch":{"outcome":"discarded","reason":"corrupt"}"#))
    }

    @Test("a force quit discards saved state and exits; the next launch is fresh but keeps the currencies")
    func forceQuit() throws {
        let (device, app, _) = try listInBackground()
        app.foreground()
        #expect(app.forceQuit() == [.discardSavedState(.forceQuit), .terminate])
        let next = try device.launch()
        #expect(next.launchReport?.outcome == .fresh)
        #expect(next.state().currencies["to"] == "GBP" && next.state().common.presented == nil)
    }

    @Test("a quit that is not forced preserves first")
    func quit() throws {
        #expect(try Device().launch().quit() == [.lifecycleChanged(.background), .preserveState, .terminate])
    }

    @Test("an archive from another build is discarded as build-mismatch")
    func buildMismatch() throws {
        let (_, _, archive) = try listInBackground()
        let app = try Device(build: "8").launch(candidates: [archive])
        #expect(app.launchReport?.outcome == .discarded && app.launchReport?.discardReason == .buildMismatch)
        #expect(app.state().common.paths == [SeedPath.main, SeedPath.converter])
    }

    @Test("a restore that crashed (the mark is still set) is discarded as crashed-during-restore")
    func crashedDuringRestore() throws {
        let (device, _, archive) = try listInBackground()
        let app = try device.launch(candidates: [archive], mark: MemoryRestoringMark(true))
        #expect(app.launchReport?.discardReason == .crashedDuringRestore)
    }

    @Test("saved currencies that cannot be read are refused; the app keeps EUR and USD")
    func unreadableData() throws {
        let app = BancaApp(buildNumber: "7", camera: .denied)
        for bytes in [Array("from=XXX\nto=USD\n".utf8), Array("garbage".utf8), []] {
            #expect(throws: CurrencyPair.DataError.self) { try app.loadData(bytes) }
        }
        #expect(app.pair == .initial)
        try app.loadData(CurrencyPair(from: "RSD", to: "CHF").bytes)
        #expect(app.pair == CurrencyPair(from: "RSD", to: "CHF"))
    }
}
