@testable import Countries
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Issue 11's property: any walk through the screens (taps chosen at random from `Elements()`), then
/// background and a kill, comes back with the same state JSON but for launch, lifecycle, restoredVia
/// and lastExit.
@Suite("Countries random walks")
struct RandomWalkTests {
    /// Each failure message holds its walk, which replays it (`tap` each name in turn, `foreground` as written).
    @Test("300 walks of up to 40 taps, each relaunched twice from what it preserved", arguments: 0..<3)
    func walks(batch: Int) throws {
        var random = SystemRandomNumberGenerator()
        for walkNumber in (batch * 100)..<(batch * 100 + 100) {
            let host = FakeHost()
            var app = try host.relaunch()
            var walk: [String] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let elements = app.elements()
                guard let element = elements.randomElement(using: &random) else {
                    try host.perform(app.foreground(), of: app)
                    walk.append("foreground")
                    continue
                }
                walk.append(element.name)
                try host.tap(app, element.name)
            }
            try host.background(app)
            let expected = comparableJSON(app.state())
            let expectedScreen = app.screen()
            for _ in 0..<2 {
                app = try host.relaunch()
                #expect(comparableJSON(app.state()) == expected, "walk \(walkNumber): \(walk.joined(separator: " "))")
                #expect(app.state().common.launchOutcome == "restored", "walk \(walkNumber): \(walk.joined(separator: " "))")
                try host.background(app)
                #expect(app.screen() == expectedScreen, "walk \(walkNumber): the screen differs after \(walk.joined(separator: " "))")
            }
        }
    }
}
