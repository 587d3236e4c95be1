@testable import CheckIn
import RelaunchApp
import Testing

/// The screen to the character, so that a change of the shared phone frame cannot change it unseen.
@Suite("Check-in screen, exactly")
struct ScreenGoldenTests {
    @Test("the venue list, a pushed venue and the dimmed modal draw exactly as they did")
    func exact() throws {
        let app = launchedApp()
        let list = app.screen()
        try app.tap("venue:tartine")
        let detail = app.screen()
        try app.tap("tab:venues")
        _ = try playSeedUntilSettings(app)
        app.foreground()
        try app.type("note", "a note long enough to be wrapped over more than three lines of the card, and then cut short with an ellipsis at the end")
        let modal = app.screen()
        #expect(list + detail + modal == Self.expected)
    }

    /// The three screens as the check-in app drew them before the phone frame moved to RelaunchApp.
    static let expected = #"""
            ╭────────────────────────────────────────────╮
            │ 9:41  build 7       camera denied · active │
            │────────────────────────────────────────────│
            │ Venues                                     │
            │                                            │
            │   Blue Bottle Coffee     venue:blue-bottle │
            │   Ferry Building      venue:ferry-building │
            │   Tartine Bakery             venue:tartine │
            │   Dolores Park          venue:dolores-park │
            │   City Lights Books      venue:city-lights │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │────────────────────────────────────────────│
            │   [■ Venues]  tab:venues     □ Check In    │
            ╰────────────────────────────────────────────╯
            ╭────────────────────────────────────────────╮
            │ 9:41  build 7       camera denied · active │
            │────────────────────────────────────────────│
            │ ‹ Venues   (tap tab:venues to go back)     │
            │                                            │
            │ Tartine Bakery                             │
            │ id: tartine                                │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │                                            │
            │────────────────────────────────────────────│
            │   [■ Venues]  tab:venues     □ Check In    │
            ╰────────────────────────────────────────────╯
            ╭────────────────────────────────────────────╮
            │ 9:41  build 7       camera denied · active │
            │────────────────────────────────────────────│
            │░Check░In░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
            │░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
            │░Check░in░where░you░are:░pick░a░venue,░░░░░░│
            │░say░how░many░you░are,░scan░its░code.░░░░░░░│
            │ ┌────────────────────────────────────────┐ │
            │ │ Check In                               │ │
            │ │ venue       Blue Bottle Coffee         │ │
            │ │ party-size  4                          │ │
            │ │ note        a note long enough to be   │ │
            │ │             wrapped over more than     │ │
            │ │             three lines of the card, … │ │
            │ │                                        │ │
            │ │ step: denied                           │ │
            │ │ Camera access is denied.               │ │
            │ │ [open-settings]                [done]  │ │
            │ └────────────────────────────────────────┘ │
            ╰────────────────────────────────────────────╯

            """#
}
