@testable import Banca
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Issue 11's acceptance in process: any walk through the screens, taps and typing chosen at random
/// from `elements()`, then the background and a kill, comes back with the same state JSON but for
/// launch, lifecycle, restoredVia and lastExit.
@Suite("Banca random walks")
struct WalkTests {
    /// Text to type: amounts accepted and refused.
    private static let amounts = ["", "0", "7", "12.5", "12.50", "999999999.99", ".5", "3.", "1,5", "abc", "1.234", "1234567890"]

    /// Walks `steps` random steps from `elements()`; a step that sends the app to the background is
    /// followed by a change of the camera (Settings) half the time and a return to the foreground.
    private func walk(_ app: BancaApp, _ device: Device, steps: Int, using random: inout SeededGenerator) -> [String] {
        var trail: [String] = []
        for _ in 0..<steps {
            guard let element = app.elements().randomElement(using: &random) else { break }
            if element.isField {
                let text = Self.amounts.randomElement(using: &random) ?? ""
                trail.append("type \(element.name) \"\(text)\"")
                _ = try? app.type(element.name, text)
            } else {
                trail.append("tap \(element.name)")
                _ = try? device.tap(app, element.name)
            }
            if app.lifecycle == .background {
                if Bool.random(using: &random) { app.setCamera(app.camera == .allowed ? .denied : .allowed) }
                app.foreground()
            }
        }
        return trail
    }

    @Test("a random walk, the background and a kill come back with the same state", arguments: 0..<8)
    func walkThenKill(batch: UInt64) throws {
        for seed in (batch * 50)..<(batch * 50 + 50) {
            var random = SeededGenerator(seed: seed)
            let device = Device(camera: Bool.random(using: &random) ? .allowed : .denied)
            let app = try device.launch()
            let trail = walk(app, device, steps: Int.random(in: 1...40, using: &random), using: &random)
            device.camera = app.camera
            app.background()
            let saved = app.state()
            let restored = try device.launch(candidates: [candidate(app)])
            #expect(restored.launchReport?.outcome == .restored, "seed \(seed): \(trail)")
            #expect(comparable(restored.state(), like: saved).json == saved.json, "seed \(seed): \(trail)")
            restored.background()
            #expect(restored.screen() == app.screen(), "seed \(seed): the same screen, too")
        }
    }

    @Test("walks reach every screen: the converter, the camera both ways, About, the list for both sides")
    func walksReachEveryScreen() throws {
        var seen: Set<String> = []
        for seed in UInt64(0)..<100 {
            var random = SeededGenerator(seed: seed)
            let device = Device(camera: Bool.random(using: &random) ? .allowed : .denied)
            let app = try device.launch()
            for _ in 0..<40 {
                _ = walk(app, device, steps: 1, using: &random)
                seen.insert(app.statusLine())
            }
        }
        #expect(seen.isSuperset(of: [
            "Showing converter (EUR to USD)", "Showing scan (scanning)", "Showing scan (denied)", "Showing about",
            "Showing currencies (from)", "Showing currencies (to)",
        ]), "\(seen.sorted())")
    }
}
