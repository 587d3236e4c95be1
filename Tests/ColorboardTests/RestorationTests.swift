@testable import Colorboard
import RelaunchApp
import RelaunchContract
import RestorationKit
import Testing

/// Each screen comes back after a kill the way seed 001 restores it.
@Suite("Colorboard restoration")
struct ColorboardRestorationTests {
    @Test("the pushed editor comes back with what was typed, by its restoration class; the rest exists already")
    func pushedEditor() throws {
        let before = try launchedApp()
        try before.tap("color:c1")
        try before.type("name", "Navy")
        try before.type("green", "0.25")
        let after = try relaunched(before)
        let state = after.state()
        #expect(after.launchReport?.outcome == .restored)
        #expect(comparableJSON(state) == comparableJSON(before.state()))
        #expect(state.common.restoredVia == [
            SeedPath.navigation: "existing", SeedPath.palette: "existing", SeedPath.pushedEditor: "restorationClass",
        ])
        #expect(state.editor == .init(
            colorID: "c1", existing: true, name: "Navy", red: 0, green: 0.25, blue: 1, hex: "#0040FF", swatch: "none"))
        #expect(state.colors.first?.name == "Blue", "the edit reaches the list only when the editor goes away")
        #expect(state.common.presented == nil)
    }

    @Test("a new color's editor comes back presented: its navigation controller from the storyboard, the editor by its class")
    func presentedEditor() throws {
        let before = try launchedApp()
        try addColor(before)
        let after = try relaunched(before)
        let state = after.state()
        #expect(comparableJSON(state) == comparableJSON(before.state()))
        #expect(state.common.presented == SeedPath.newColorNavigation)
        #expect(state.common.restoredVia[SeedPath.newColorNavigation] == "storyboard")
        #expect(state.common.restoredVia[SeedPath.presentedEditor] == "restorationClass")
        #expect(state.editor?.existing == false && state.editor?.name == "Teal" && state.editor?.hex == "#008080")
        #expect(after.newColorNavigation?.viewControllers.count == 1, "the restored editor replaced the storyboard's root")
        #expect(state.colors.map(\.id) == ["c1", "c2"], "the seed adds the new color to the list at once")
    }

    @Test("after the editor went away, the list shows the edits and nothing is presented")
    func listAfterDone() throws {
        let before = try launchedApp()
        try addColor(before)
        try before.tap("done")
        try before.tap("color:c1")
        try before.type("red", "1")
        try before.tap("back")
        let after = try relaunched(before)
        #expect(after.state().colors.map(\.hex) == ["#FF00FF", "#008080"])
        #expect(after.state().common.paths == [SeedPath.navigation, SeedPath.palette])
        #expect(comparableJSON(after.state()) == comparableJSON(before.state()))
    }

    @Test("save-swatch denied, Settings, photos allowed: the relaunched editor may save it now")
    func swatchAfterPermissionChange() throws {
        let before = try launchedApp(photos: .denied)
        try addColor(before)
        try before.tap("save-swatch")
        #expect(before.state().editor?.swatch == "denied")
        let effects = try before.tap("open-settings")
        #expect(effects == [.openSettings(.photos), .lifecycleChanged(.background), .preserveState])
        let after = try relaunched(before, photos: .allowed)
        #expect(after.state().editor?.swatch == "none")
        #expect(after.state().editor?.name == "Teal")
        let saved = try after.tap("save-swatch")
        #expect(after.state().swatches == ["Teal #008080"])
        #expect(saved == [.saveData(after.store.data())])
        #expect(after.state().editor?.swatch == "saved")
    }

    @Test("an editor whose color is gone from the list is not restored")
    func colorGone() throws {
        let before = try launchedApp()
        try addColor(before)
        let archive = try before.preserve().bytes
        let after = try launchedApp(data: try launchedApp().store.data(), archive: archive)
        #expect(after.presentedEditor == nil)
        #expect(after.state().common.presented == nil)
    }

    @Test("an archive from another build is discarded as build-mismatch; the list stays")
    func buildMismatch() throws {
        let before = try launchedApp(build: "1")
        try addColor(before)
        let after = try launchedApp(build: "2", data: before.store.data(), archive: try before.preserve().bytes)
        #expect(after.launchReport?.discardReason == .buildMismatch)
        #expect(after.state().editor == nil && after.state().colors.count == 2)
    }
}
