@testable import Colorboard
import Foundation
import RelaunchApp
import RestorationKit
import Testing

/// The app is laid out by its storyboard file, and restored from it.
@Suite("Colorboard storyboard")
struct ColorboardStoryboardTests {
    @Test("the compiled-in storyboard is the file in the repository")
    func compiledInIsTheFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Colorboard/Storyboard/Colorboard.storyboard")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == ColorboardStoryboard.text + "\n", "copy Colorboard.storyboard into ColorboardStoryboard.text")
    }

    @Test("a fresh launch shows the storyboard's initial scene; restoration identifiers are the storyboard ids")
    func freshFromStoryboard() throws {
        let app = try launchedApp()
        #expect(app.state().common.paths == [SeedPath.navigation, SeedPath.palette])
        for controller in [app.paletteNavigation, app.palette] as [ViewController?] {
            #expect(controller?.storyboard?.name == "Colorboard")
            #expect(controller?.restorationIdentifier == controller?.storyboardIdentifier)
        }
        try app.tap("color:c1")
        try app.tap("back")
        try addColor(app)
        let editor = try #require(app.presentedEditor)
        #expect(editor.storyboardIdentifier == "BNRColorViewController" && editor.restorationIdentifier == "BNRColorViewController")
        #expect(app.newColorNavigation?.storyboardIdentifier == "NewColorNavigationController")
    }

    @Test("the segues hand the editor its color as the seed's prepareForSegue does")
    func segues() throws {
        let app = try launchedApp()
        try app.tap("color:c1")
        #expect(app.pushedEditor?.colorDescription === app.store.color("c1"))
        #expect(app.pushedEditor?.existingColor == true && app.pushedEditor?.hasDoneButton == false)
        try app.tap("back")
        try app.tap("add")
        #expect(app.presentedEditor?.colorDescription === app.store.color("c2"))
        #expect(app.presentedEditor?.existingColor == false && app.presentedEditor?.hasDoneButton == true)
        #expect(app.state().editor?.name == "Blue", "a new color starts as the seed's blue")
    }

    @Test("the editor's restoration class instantiates it from the storyboard the coder names")
    func restorationClassUsesTheCodersStoryboard() throws {
        let app = try launchedApp()
        try app.tap("color:c1")
        try app.type("name", "Navy")
        var archive = try ArchiveCodec.decode(try app.preserve().bytes).archive
        let index = try #require(archive.controllers.firstIndex { $0.path.joined(separator: "/") == SeedPath.pushedEditor })
        #expect(archive.controllers[index].state[StateCoder.storyboardKey] == .string("Colorboard"))
        #expect(archive.controllers[index].restorationClassName == RestorationRegistry.name(of: BNRColorViewController.self))

        let restored = try launchedApp(data: app.store.data(), archive: try ArchiveCodec.encode(archive))
        #expect(restored.state().common.restoredVia[SeedPath.pushedEditor] == "restorationClass")
        #expect(restored.pushedEditor?.storyboard?.name == "Colorboard")

        // A coder naming a storyboard the app does not have: the restoration class makes nothing.
        archive.controllers[index].state[StateCoder.storyboardKey] = .string("Elsewhere")
        let without = try launchedApp(data: app.store.data(), archive: try ArchiveCodec.encode(archive))
        #expect(without.pushedEditor == nil)
        #expect(without.launchReport?.warnings.contains { $0.contains("BNRColorViewController was not restored") } == true)
    }
}
