@testable import Banca
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Taps and typing, and what is refused with what message.
@Suite("Banca input")
struct InputTests {
    @Test("amounts: plain decimals with up to nine digits and two decimals, or nothing", arguments: [
        ("", true), ("0", true), ("12", true), ("12.5", true), ("12.50", true), ("3.", true), (".5", true),
        ("999999999.99", true), (".", false), ("1,5", false), ("-3", false), ("1.234", false), ("1234567890", false),
        ("1e3", false), (" 1", false), ("١٢", false),
    ])
    func amounts(text: String, accepted: Bool) throws {
        let app = try Device().launch()
        if accepted {
            try app.type("amount", text)
            #expect(app.state().amount == text)
        } else {
            #expect(throws: BancaInputError.invalidAmount(text)) { try app.type("amount", text) }
            #expect(app.state().amount == "")
        }
    }

    @Test("conversion uses the two currencies; swap swaps them and saves the data")
    func conversion() throws {
        let device = Device()
        let app = try device.launch()
        try app.type("amount", "100")
        #expect(app.state().converted == "109.00")
        #expect(try device.tap(app, "swap") == [.saveData(CurrencyPair(from: "USD", to: "EUR").bytes)])
        #expect(app.state().converted == "91.74" && app.state().currencies == ["from": "USD", "to": "EUR"])
        #expect(Amount.rate(from: Currency.catalog[22], to: Currency.catalog[7]) == "0.9174")
    }

    @Test("picking a currency saves the data at once, for the side the list was opened for")
    func pick() throws {
        let device = Device()
        let app = try device.launch()
        try device.tap(app, "currencies:from")
        #expect(try device.tap(app, "currency:CHF") == [.saveData(CurrencyPair(from: "CHF", to: "USD").bytes)])
        #expect(app.state().currencyList?.selected == "CHF", "the check mark moves; the list stays until done")
        try device.tap(app, "done")
        #expect(app.state().currencies["from"] == "CHF")
    }

    @Test("only rows in view can be tapped; scrolling brings others in", arguments: [false, true])
    func rowsInView(scroll: Bool) throws {
        let app = try Device().launch()
        try app.tap("currencies:from")
        if scroll {
            for _ in 0..<4 { try app.tap("scroll-down") }
            try app.tap("currency:ZAR")
            #expect(app.elements().map(\.name).contains("scroll-down") == false, "at the end of the list")
        } else {
            #expect(throws: BancaInputError.self) { try app.tap("currency:ZAR") }
            #expect(app.elements().map(\.name).contains("scroll-up") == false, "at the top of the list")
        }
    }

    @Test("errors say what is accepted, in one line")
    func errors() throws {
        let app = try Device().launch()
        #expect(throws: BancaInputError.unknownElement("fly")) { try app.tap("fly") }
        let unknown = BancaInputError.unknownCurrency("XYZ", accepted: ["EUR", "USD"])
        #expect(throws: BancaInputError.unknownCurrency("XYZ", accepted: Currency.catalog.map(\.id))) { try app.tap("currency:XYZ") }
        #expect(unknown.description == "unknown currency 'XYZ'; accepted: currency:EUR currency:USD")
        #expect(throws: BancaInputError.notOnScreen("done", onScreen: ["currencies:from", "currencies:to", "swap", "about", "scan"])) {
            try app.tap("done")
        }
        #expect(throws: BancaInputError.unknownField("note")) { try app.type("note", "x") }
        try app.tap("about")
        #expect(throws: BancaInputError.amountNotOnScreen) { try app.type("amount", "1") }
        app.background()
        #expect(throws: BancaInputError.inBackground) { try app.tap("done") }
        #expect(app.elements().isEmpty)
        let long = BancaInputError.unknownElement(String(repeating: "x", count: 500) + "\nsecond line").description
        #expect(!long.contains("\n") && long.count < 400)
    }

    @Test("the camera screen follows the permission: capture when allowed, Settings when not")
    func scan() throws {
        let device = Device(camera: .allowed)
        let app = try device.launch()
        try app.tap("scan")
        #expect(app.elements().map(\.name) == ["capture", "back"])
        app.setPermission(.camera, to: .denied)
        #expect(app.elements().map(\.name) == ["open-settings", "back"])
        try app.tap("back")
        #expect(app.state().scan == nil && app.state().common.paths.count == 2)
    }
}
