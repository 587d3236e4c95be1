@testable import Banca
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Seed 000: `MainNC` is the window's existing root, the modal navigation controllers come from the
/// app delegate, their roots from their restoration classes.
@Suite("Banca seed restoration")
struct SeedRestorationTests {
    @Test("the app delegate returns the window's existing root for MainNC and new navigation controllers for the modals")
    func delegateFallback() throws {
        let app = try Device().launch()
        let root = try #require(app.application.window.rootViewController)
        let coder = StateCoder(application: app.application)
        let ask = { (path: [String]) in
            app.delegate.application(app.application, viewControllerWithRestorationIdentifierPath: path, coder: coder)
        }
        #expect(ask(["MainNC"]) === root)
        for identifier in ["AboutNC", "CurrenciesNC"] {
            let made = try #require(ask(["MainNC", "ConverterViewController", identifier]) as? NavigationController)
            #expect(made.restorationIdentifier == identifier && made.restorationClass == nil && made.viewControllers.isEmpty)
            #expect(made !== ask(["MainNC", "ConverterViewController", identifier]), "a new one each time")
        }
        for path in [["MainNC", "ConverterViewController"], ["MainNC", "ConverterViewController", "AboutNC", "AboutViewController"], ["Other"]] {
            #expect(ask(path) == nil, "\(path): left to restoration classes and existing controllers")
        }
    }

    @Test("About comes back presented: AboutNC through the app delegate, its root by its restoration class")
    func about() throws {
        let device = Device()
        let before = try device.launch()
        let root = before.application.window.rootViewController
        try device.tap(before, "about")
        #expect(before.state().common.presented == SeedPath.aboutNavigation)
        let after = try device.backgroundAndRelaunch(before)
        let state = after.state()
        #expect(after.launchReport?.outcome == .restored)
        #expect(state.common.presented == SeedPath.aboutNavigation)
        #expect(state.common.restoredVia == [
            SeedPath.main: "appDelegate", SeedPath.converter: "existing", SeedPath.aboutNavigation: "appDelegate",
            SeedPath.about: "restorationClass",
        ])
        #expect(after.launchReport?.restored.map(\.path) == [SeedPath.main, SeedPath.converter, SeedPath.aboutNavigation, SeedPath.about])
        #expect(root !== after.application.window.rootViewController, "a new process, a new root")
        #expect(after.about != nil && after.elements().map(\.name) == ["done"])
        #expect(comparable(state, like: before.state()) == before.state())
    }

    @Test("the currency list comes back with its side, selection and scroll position; the currencies from the data")
    func currencyList() throws {
        let device = Device()
        let before = try device.launch()
        try before.type("amount", "12.50")
        try device.tap(before, "currencies:to")
        #expect(before.state().currencyList?.selected == "USD", "the current currency is selected")
        #expect(before.state().currencyList?.firstVisible == "AUD", "the list opens at its top")
        for _ in 0..<3 { try device.tap(before, "scroll-down") }
        try device.tap(before, "currency:NOK")
        let saved = before.state()
        #expect(saved.currencyList == .init(side: "to", selected: "NOK", firstVisible: "JPY", scrollOffset: 12 * 44))
        #expect(saved.currencies == ["from": "EUR", "to": "NOK"])
        #expect(saved.converted == "142.25")

        let after = try device.backgroundAndRelaunch(before)
        let state = after.state()
        #expect(comparable(state, like: saved) == saved)
        #expect(state.common.restoredVia[SeedPath.currenciesNavigation] == "appDelegate")
        #expect(state.common.restoredVia[SeedPath.currencies] == "restorationClass")
        #expect(state.amount == "12.50")
        try device.tap(after, "done")
        #expect(after.state().common.presented == nil && after.state().currencies["to"] == "NOK")
    }

    @Test("the list's selection and scroll position are saved by its table view, by currency code")
    func tableSavesByCode() throws {
        let device = Device()
        let app = try device.launch()
        try device.tap(app, "currencies:from")
        try device.tap(app, "scroll-down")
        try device.tap(app, "currency:HKD")
        let archive = try ArchiveCodec.decode(try candidate(app).bytes).archive
        let list = try #require(archive.controllers.first { $0.path.joined(separator: "/") == SeedPath.currencies })
        #expect(list.state["side"] == .string("from"))
        let table = try #require(list.views.first { $0.identifier == RestorationID.currencyTable })
        #expect(table.state[TableView.selectedIdentifiersKey] == .strings(["HKD"]))
        #expect(table.state[TableView.firstVisibleIdentifierKey] == .string("CNY"))
        #expect(table.state[ScrollView.contentOffsetYKey] == .double(4 * 44))
    }

    @Test("a currency gone since preservation restores no selection, and the scroll follows the row")
    func currencyGone() throws {
        let device = Device()
        let before = try device.launch()
        try device.tap(before, "currencies:from")
        try device.tap(before, "scroll-down")
        try device.tap(before, "currency:GBP")
        let bytes = try candidate(before)
        device.currencies = Currency.catalog.filter { !["GBP", "AUD"].contains($0.id) }
        device.data = CurrencyPair(from: "EUR", to: "USD").bytes
        let state = try device.launch(candidates: [bytes]).state()
        #expect(state.currencyList?.selected == nil)
        #expect(state.currencyList?.firstVisible == "CNY", "still first in view, one row higher")
        #expect(state.currencyList?.scrollOffset == 3 * 44.0, "the offset follows the row, not the saved points")
    }

    @Test("the pushed camera screen comes back; denied before Settings, scanning once the camera is allowed")
    func scanAfterSettings() throws {
        let device = Device(camera: .denied)
        let before = try device.launch()
        try device.tap(before, "scan")
        #expect(before.state().scan == "denied")
        #expect(before.elements().map(\.name) == ["open-settings", "back"])
        let effects = try device.tap(before, "open-settings")
        #expect(effects == [.openSettings(.camera), .lifecycleChanged(.background), .preserveState])
        let archive = try candidate(before)

        device.camera = .allowed
        let after = try device.launch(candidates: [archive])
        let state = after.state()
        #expect(state.scan == "scanning")
        #expect(state.common.paths == [SeedPath.main, SeedPath.converter, SeedPath.scan])
        #expect(state.common.restoredVia[SeedPath.scan] == "restorationClass")
        #expect(state.common.permissions == [.camera: .allowed])
        try device.tap(after, "capture")
        #expect(after.state().amount == "24.90" && after.state().scan == nil)
    }

    @Test("a fresh launch shows the converter in MainNC, made before restoration")
    func fresh() throws {
        let app = try Device().launch()
        let state = app.state()
        #expect(state.common.paths == [SeedPath.main, SeedPath.converter])
        #expect(state.common.presented == nil && state.currencyList == nil && state.scan == nil)
        #expect(state.currencies == ["from": "EUR", "to": "USD"])
        #expect(app.elements().map(\.name) == ["currencies:from", "currencies:to", "swap", "about", "scan", "amount"])
    }

    @Test("the state JSON has the common keys, nulls for absent values, and Banca's own")
    func jsonShape() throws {
        let device = Device()
        let app = try device.launch()
        let fresh = app.stateJSON()
        for fragment in [#""launch":{"outcome":"fresh","reason":null}"#, #""presented":null"#, #""lastExit":null"#,
                         #""lifecycle":"active""#, #""restoredVia":{}"#, #""permissions":{"camera":"denied"}"#,
                         #""currencyList":null"#, #""scan":null"#, #""amount":"""#, #""converted":"0.00""#,
                         #""paths":["MainNC","MainNC/ConverterViewController"]"#] {
            #expect(fresh.contains(fragment), "\(fragment) in \(fresh)")
        }
        try device.tap(app, "currencies:from")
        app.lastExit = LastExit(permission: .camera, old: .denied, new: .allowed)
        let open = app.stateJSON()
        #expect(open.contains(#""currencyList":{"firstVisible":"AUD","scrollOffset":0,"selected":"EUR","side":"from"}"#), "\(open)")
        #expect(open.contains(#""lastExit":{"new":"allowed","old":"denied","permission":"camera"}"#))
    }
}
