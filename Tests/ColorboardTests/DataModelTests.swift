@testable import Colorboard
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// The color list is the data model: saved apart from the archive, it survives what discards the archive.
@Suite("Colorboard data model")
struct ColorboardDataModelTests {
    @Test("every change of the list asks the host to save it; typing into the editor does not")
    func saveEffects() throws {
        let app = try launchedApp()
        let added = try app.tap("add")
        #expect(added == [.saveData(app.store.data())])
        #expect(try app.type("name", "Teal") == [])
        #expect(try app.tap("done") == [.saveData(app.store.data())])
        #expect(app.store.color("c2")?.name == "Teal")
        #expect(try app.tap("color:c2") == [])
        #expect(try app.tap("back") == [.saveData(app.store.data())])
        try app.tap("add")
        #expect(try app.tap("cancel") == [.saveData(app.store.data())])
        #expect(app.store.colors.map(\.id) == ["c1", "c2"], "cancel drops the new color")
    }

    @Test("a force quit discards the UI state but the list survives")
    func forceQuit() throws {
        let host = FakeHost<ColorboardApp>()
        let app = try launchedApp()
        try host.perform(try app.tap("add"), of: app)
        try app.type("name", "Teal")
        try host.perform(try app.tap("done"), of: app)
        try host.perform(try app.tap("color:c2"), of: app)
        try app.type("name", "not kept")
        try host.perform(app.background(), of: app)
        try host.perform(app.foreground(), of: app)
        #expect(host.archive != nil)
        let effects = app.forceQuit()
        #expect(effects == [.discardSavedState(.forceQuit), .terminate])
        try host.perform(effects, of: app)
        let after = try launchedApp(data: host.data, archive: host.archive)
        #expect(after.launchReport?.outcome == .fresh)
        #expect(after.state().editor == nil)
        #expect(after.state().colors.map(\.name) == ["Blue", "Teal"])
    }

    @Test("a corrupt archive is discarded as corrupt; the list survives")
    func corruptArchive() throws {
        let before = try launchedApp()
        try addColor(before)
        try before.tap("done")
        try before.tap("color:c2")
        var bytes = try before.preserve().bytes
        bytes[bytes.count / 2] ^= 0x01
        let after = try launchedApp(data: before.store.data(), archive: bytes)
        #expect(after.launchReport?.outcome == .discarded && after.launchReport?.discardReason == .corrupt)
        #expect(after.state().editor == nil)
        #expect(after.state().colors.map(\.name) == ["Blue", "Teal"])
    }

    @Test("unreadable data is refused with a reason and the app keeps the seed's list", arguments: [
        (Array("not json".utf8), "not the color list's JSON"),
        (Array(#"{"format":9,"nextNumber":2,"colors":[],"swatches":[]}"#.utf8), "format 9"),
        (Array(#"{"format":1,"nextNumber":2,"colors":[{"id":"c1","name":"A","red":2,"green":0,"blue":0}],"swatches":[]}"#.utf8), "outside 0...1"),
        (Array(#"{"format":1,"nextNumber":2,"colors":[{"id":"c1","name":"A","red":0,"green":0,"blue":0},{"id":"c1","name":"B","red":0,"green":0,"blue":0}],"swatches":[]}"#.utf8), "appears twice"),
    ])
    func unreadableData(bytes: [UInt8], reason: String) throws {
        let app = ColorboardApp(buildNumber: "1", photos: .denied)
        let error = #expect(throws: ColorDataError.self) { try app.loadData(bytes) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        app.launch(candidates: [], restoringMark: MemoryRestoringMark())
        #expect(app.state().colors.map(\.name) == ["Blue"])
    }

    @Test("a swatch is saved with add-only, limited or full photos, and the editor says what the level means", arguments: [
        (PermissionState.addOnly, "add-only: it cannot see the library"), (.limited, "limited: it sees only chosen photos"),
        (.allowed, "saved to Photos"),
    ])
    func swatchUnderPhotoAccess(_ access: PermissionState, _ says: String) throws {
        let app = try launchedApp(photos: access)
        try addColor(app)
        try app.tap("save-swatch")
        #expect(app.state().swatches.count == 1, "\(access)")
        #expect(app.state().editor?.swatch == "saved", "\(access)")
        #expect(app.screen().contains(says), "\(access)")
        let denied = try launchedApp(photos: .denied)
        try addColor(denied)
        try denied.tap("save-swatch")
        #expect(denied.state().swatches.isEmpty && denied.state().editor?.swatch == "denied")
    }

    @Test("the saved list reads back the same, and new ids never reuse an old one")
    func roundTrip() throws {
        let app = try launchedApp(photos: .allowed)
        try addColor(app)
        try app.tap("save-swatch")
        try app.tap("done")
        try app.tap("add")
        try app.tap("cancel")
        let copy = try launchedApp(data: app.store.data())
        #expect(copy.store.data() == app.store.data())
        try copy.tap("add")
        #expect(copy.store.colors.last?.id == "c4", "c3 was given to the cancelled color")
    }
}
