@testable import CheckIn
import RelaunchApp
import Testing

/// The screen drawn as text.
@Suite("Check-in screen")
struct ScreenTests {
    @Test("a fresh launch shows the venue list in a phone frame with the tab bar")
    func fresh() {
        let screen = launchedApp().screen()
        let lines = screen.split(separator: "\n")
        #expect(lines.first?.hasPrefix("╭") == true && lines.last?.hasPrefix("╰") == true)
        #expect(Set(lines.map(\.count)).count == 1, "every line is as wide as the frame")
        #expect(screen.contains("Blue Bottle Coffee") && screen.contains("venue:blue-bottle"))
        #expect(screen.contains("[■ Venues]"))
    }

    @Test("the modal is drawn over its presenter, dimmed by its overlay")
    func modal() throws {
        let app = launchedApp()
        _ = try playSeedUntilSettings(app)
        let screen = app.screen()
        #expect(screen.contains("window seat, please") && screen.contains("[open-settings]"))
        #expect(screen.contains("░"))
        #expect(!screen.contains("[■ Check In]"), "the card covers the tab bar")
    }

    @Test("after restoration the screen is the one the user left")
    func restoredScreen() throws {
        let before = launchedApp()
        _ = try playSeedUntilSettings(before)
        before.foreground()
        let after = launchedApp(candidates: [try candidate(before)])
        #expect(after.screen() == before.screen())
    }
}
