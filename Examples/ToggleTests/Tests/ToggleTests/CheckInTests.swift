import RelaunchTesting
import Testing

/// Seed 002's settings scenario: the user fills in the check-in modal, finds the camera denied,
/// opens Settings and allows it; the app is killed, as iOS does, and the modal comes back with what
/// was typed, through the app delegate's fallback.
@Suite(.serialized)
struct CheckInTests {
    @Test func allowingTheCameraBringsTheModalBack() async throws {
        let app = try await TestedApp.attach("checkin-demo")
        try await app.setPermission(.camera, to: .denied)
        // A fresh start (a force quit discards what earlier tests left) that knows the camera is
        // denied, as after the user's first refusal.
        try await app.quit(force: true)
        try await app.launch()

        try await app.tap("tab:check-in")
        try await app.tap("check-in")
        try await app.type("Harbour Cafe", into: "venue")
        try await app.type("3", into: "party-size")
        try await app.type("Window seat, please", into: "note")
        try await app.tap("scan")
        #expect(try await app.state().value(at: "modal.step")?.string == "denied")
        try await app.tap("open-settings")
        #expect(try await app.state().lifecycle == .background)

        let change = try await app.setPermission(.camera, to: .allowed)
        #expect(change.previous[.camera] == .denied)
        #expect(change.wasKilled, "allowing the camera must kill the app, as iOS does")
        let back = try #require(change.relaunch, "checkin-demo was killed but did not come back")
        #expect(back.outcome == .restored, "checkin-demo came back \(back.outcome.rawValue)\(back.discardReason.map { " (\($0.rawValue))" } ?? ""), not restored: the modal and what was typed are lost")
        let modal = "TabViewController/CheckInViewController/CheckInModalNavigationController"
        #expect(back.restoredVia[modal] == .appDelegate, "the modal's navigation controller has no restoration class: the app delegate makes it")
        #expect(back.restoredVia[modal + "/CheckInModalViewController"] == .restorationClass)

        let state = try await app.state()
        #expect(state.presented == modal)
        #expect(state.value(at: "modal.venue")?.string == "Harbour Cafe")
        #expect(state.value(at: "modal.partySize")?.int == 3)
        #expect(state.value(at: "modal.note")?.string == "Window seat, please")
        #expect(state.value(at: "modal.step")?.string == "scan")
        #expect(state.permissions[.camera] == .allowed)
        #expect(state.lastExit?.permission == .camera)
        #expect(try await app.permission(.camera) == PermissionReading(store: .allowed, app: .allowed))
    }

    @Test func settingTheSameStateKillsNothing() async throws {
        let app = try await TestedApp.attach("checkin-demo")
        let current = try await app.permission(.camera).store
        let change = try await app.setPermission(.camera, to: current)
        #expect(!change.changedAnything)
        #expect(!change.wasKilled, "a change to the state the permission already has must not kill the app")
        #expect(change.relaunch == nil)
    }

    @Test func aForceQuitDiscardsSavedState() async throws {
        let app = try await TestedApp.attach("checkin-demo")
        // From a fresh start: the app may be anywhere an earlier test left it.
        try await app.quit(force: true)
        try await app.launch()
        try await app.tap("tab:check-in")
        try await app.tap("check-in")
        try await app.type("Gone", into: "venue")
        try await app.background()
        try await app.quit(force: true)
        // The saved state went with the force quit: the next launch has nothing to restore.
        let launch = try await app.launch()
        #expect(launch.outcome == .fresh)
        #expect(try await app.state().presented == nil)
    }
}
