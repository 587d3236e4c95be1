import RelaunchTesting
import Testing

/// One permission-toggle scenario of each other seed app.
@Suite(.serialized)
struct SeedAppTests {
    /// Seed 000: the currency list open when the camera is allowed in Settings comes back, made by
    /// the app delegate, with its selection and scroll position.
    @Test func bancaBringsTheCurrencyListBack() async throws {
        let app = try await TestedApp.attach("banca-demo")
        try await app.setPermission(.camera, to: .denied)
        try await app.quit(force: true)
        try await app.launch()
        try await app.type("250", into: "amount")
        try await app.tap("currencies:to")
        try await app.tap("scroll-down")
        try await app.tap("currency:GBP")
        try await app.background()

        let change = try await app.setPermission(.camera, to: .allowed)
        let back = try #require(change.relaunch, "banca-demo was not killed and relaunched by the camera change")
        #expect(back.outcome == .restored, "banca-demo came back \(back.outcome.rawValue)\(back.discardReason.map { " (\($0.rawValue))" } ?? ""), not restored")
        let list = "MainNC/ConverterViewController/CurrenciesNC"
        #expect(back.restoredVia[list] == .appDelegate)
        #expect(back.restoredVia[list + "/CurrenciesViewController"] == .restorationClass)
        let state = try await app.state()
        #expect(state.presented == list)
        #expect(state.value(at: "currencyList.selected")?.string == "GBP")
        #expect(state.value(at: "amount")?.string == "250" || state.value(at: "amount")?.int == 250)
    }

    /// Seed 001: the new color's editor, presented from the storyboard, comes back with its name
    /// and sliders after photos is allowed.
    @Test func colorboardBringsTheEditorBack() async throws {
        let app = try await TestedApp.attach("colorboard-demo")
        try await app.setPermission(.photos, to: .denied)
        try await app.quit(force: true)
        try await app.launch()
        try await app.tap("add")
        try await app.type("Sea Glass", into: "name")
        try await app.type("0.2", into: "red")
        try await app.type("0.8", into: "green")
        try await app.type("0.6", into: "blue")
        try await app.background()

        let change = try await app.setPermission(.photos, to: .allowed)
        let back = try #require(change.relaunch, "colorboard-demo was not killed and relaunched by the photos change")
        #expect(back.outcome == .restored)
        let editor = "PaletteNavigationController/BNRPaletteViewController/NewColorNavigationController"
        #expect(back.restoredVia[editor] == .storyboard)
        #expect(back.restoredVia[editor + "/BNRColorViewController"] == .restorationClass)
        let state = try await app.state()
        #expect(state.value(at: "editor.name")?.string == "Sea Glass")
        #expect(state.value(at: "editor.hex")?.string == "#33CC99")
    }

    /// Seed 004: under the ios policy a location change does not kill countries-demo; stopped in the
    /// background and started again, it comes back on the pushed country with the table's selection.
    @Test func countriesKeepsItsPlace() async throws {
        let app = try await TestedApp.attach("countries-demo")
        try await app.quit(force: true)
        try await app.launch()
        try await app.tap("scroll-down")
        try await app.tap("scroll-down")
        try await app.tap("country:Brussels")
        try await app.background()

        let previous = try await app.permission(.location).store
        let change = try await app.setPermission(.location, to: previous == .allowed ? .denied : .allowed)
        #expect(!change.wasKilled, "a location change must not kill countries-demo under the ios policy")

        try await app.terminate()
        let back = try await app.launch()
        #expect(back.outcome == .restored)
        #expect(back.restoredVia["TabBarController/CountriesNavigationController/CountryViewController"] == .restorationClass)
        let state = try await app.state()
        #expect(state.value(at: "countryDetail")?.string == "Brussels")
        #expect(state.value(at: "selectedCapital")?.string == "Brussels")
    }
}
