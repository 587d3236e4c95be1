@testable import Banca
import RelaunchApp
import Testing

/// The screen drawn as text, in the phone frame the apps share.
@Suite("Banca screen")
struct ScreenTests {
    @Test("the converter in the phone frame, with the toolbar")
    func converter() throws {
        let app = try Device().launch()
        try app.type("amount", "12.50")
        let screen = app.screen()
        let lines = screen.split(separator: "\n")
        #expect(lines.first?.hasPrefix("╭") == true && lines.last?.hasPrefix("╰") == true)
        #expect(Set(lines.map(\.count)).count == 1, "every line is as wide as the frame")
        #expect(lines.count == 20)
        for text in ["12.50▏", "EUR  Euro", "USD  US Dollar", "= 13.63 USD", "1 EUR = 1.0900 USD", "ⓘ about", "camera denied · active"] {
            #expect(screen.contains(text), "\(text) in\n\(screen)")
        }
    }

    @Test("the currency list is a card over the dimmed converter, the selection checked")
    func list() throws {
        let app = try Device().launch()
        try app.tap("currencies:from")
        let screen = app.screen()
        #expect(screen.contains("✓ EUR  Euro") && screen.contains("currency:AUD") && screen.contains("[scroll-down]"))
        #expect(screen.contains("░") && !screen.contains("ⓘ about"), "the card covers the toolbar, the rest is dimmed")
    }

    @Test("after a relaunch the screen is the one the user left")
    func restoredScreen() throws {
        let device = Device()
        for walk in [["about"], ["currencies:to", "scroll-down", "scroll-down"], ["scan"]] {
            let before = try device.launch()
            for element in walk { try device.tap(before, element) }
            let after = try device.backgroundAndRelaunch(before)
            after.background()
            #expect(after.screen() == before.screen(), "\(walk)")
        }
    }
}
