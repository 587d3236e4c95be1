import Foundation
@testable import RelaunchTesting
import Testing

/// notes-demo, the scene-based app, through RelaunchTesting's scene API: two windows edited, the
/// picker up in one, a photos change kills the app, and both windows come back under the same
/// sessions with their text and the picker.
@Suite(.serialized, .enabled(if: Sandbox.isInside, Sandbox.reason))
struct NotesBehaviourTests {
    @Test func twoWindowsComeBackAfterAPhotosKill() async throws {
        let app = try await TestedApp.attach("notes-demo", timeout: .seconds(60))
        try await app.quit(force: true)
        try await app.launch()
        _ = try await app.resetPermission(.photos)
        let first = try #require(try await app.scenes().first?.session)
        let second = try await app.openScene()
        try await app.type("Shopping", into: "title", inScene: first)
        try await app.type("Milk", into: "body", inScene: first)
        try await app.type("Trip", into: "title", inScene: second)
        try await app.tap("attach", inScene: second)
        #expect(try await app.screen(ofScene: second).contains("Photos access is"))
        try await app.background()

        let change = try await app.setPermission(.photos, to: .allowed)
        #expect(change.wasKilled, "a photos change kills notes-demo under the ios policy")
        #expect(change.relaunch?.outcome == .restored)
        let scenes = try await app.scenes()
        #expect(scenes.map(\.session) == [first, second])
        #expect(scenes.map(\.title) == ["Shopping", "Trip"])
        #expect(scenes.allSatisfy { $0.activityType == "org.relaunch.notes.editing" })
        let state = try await app.state()
        #expect(state.value(at: "scenes.0.body")?.string == "Milk")
        #expect(state.value(at: "scenes.1.presented")?.string == "NoteViewController/AttachmentPickerNavigationController")
        #expect(try await app.screen(ofScene: second).contains("photo:harbour.jpg"), "the restored picker offers photos now")

        await #expect(throws: RelaunchTestingError.self) { try await app.tap("attach", inScene: "no-such-session") }
        try await app.closeScene(first)
        #expect(try await app.scenes().map(\.session) == [second])
    }
}
