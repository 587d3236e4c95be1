@testable import Notes
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// Editing, the picker and the windows, as a user drives them.
@Suite struct InputTests {
    @Test func typingReplacesTheSelectionOrInsertsAtTheCaret() throws {
        let host = FakeHost<NotesApp>()
        let app = try host.relaunch()
        let window = try #require(app.sceneSummaries().first?.session)
        try host.type(app, "body", "abcd", scene: window)
        try host.tap(app, "cursor-left", scene: window)
        try host.type(app, "body", "X", scene: window)
        #expect(app.state().scenes[0].body == "abcXd")
        try host.tap(app, "select-left", scene: window)
        try host.tap(app, "select-left", scene: window)
        try host.type(app, "body", "-", scene: window)
        #expect(app.state().scenes[0].body == "ab-d")
        try host.tap(app, "select-all", scene: window)
        try host.type(app, "body", "new", scene: window)
        #expect(app.state().scenes[0].body == "new")
        #expect(try NoteStoreCopy.load(host.data).note("note-1")?.body == "new", "every edit saves the notes")
    }

    @Test func thePickerNeedsPhotos() throws {
        let host = FakeHost<NotesApp>()
        let denied = try host.relaunch(photos: .denied)
        try host.tap(denied, "attach")
        #expect(denied.elements().map(\.name).contains("open-settings"))
        #expect(!denied.elements().map(\.name).contains { $0.hasPrefix("photo:") })
        #expect(denied.elements().allSatisfy { !$0.isField }, "no typing while the picker is up")
        let allowed = try FakeHost<NotesApp>().relaunch(photos: .allowed)
        try host.tap(allowed, "attach")
        #expect(allowed.elements().map(\.name).prefix(3) == ["photo:harbour.jpg", "photo:receipt.png", "photo:whiteboard.jpg"])
    }

    @Test("under limited photos the picker offers only the selected photos and says so; add-only offers none")
    func thePickerUnderLimitedPhotos() throws {
        let host = FakeHost<NotesApp>()
        let limited = try host.relaunch(photos: .limited)
        try host.tap(limited, "attach")
        #expect(limited.elements().map(\.name).filter { $0.hasPrefix("photo:") } == ["photo:receipt.png"])
        #expect(limited.screen().contains("Limited: only the photos you selected."))
        #expect(throws: (any Error).self) { try host.tap(limited, "photo:harbour.jpg") }
        try host.tap(limited, "photo:receipt.png")
        #expect(limited.state().scenes[0].body == "[receipt.png]")
        let addOnly = try FakeHost<NotesApp>().relaunch(photos: .addOnly)
        try host.tap(addOnly, "attach")
        #expect(addOnly.elements().map(\.name).contains("open-settings"))
        #expect(!addOnly.elements().map(\.name).contains { $0.hasPrefix("photo:") })
    }

    @Test func inputWithoutASceneGoesToTheKeyWindow() throws {
        let host = FakeHost<NotesApp>()
        let app = try host.relaunch()
        let first = try #require(app.sceneSummaries().first?.session)
        let second = try host.openScene(app)
        try host.perform(try app.type("body", "to the second"), of: app)
        try host.tap(app, "window:1")
        try host.perform(try app.type("body", "to the first"), of: app)
        let scenes = app.state().scenes
        #expect(scenes.first { $0.session == first }?.body == "to the first")
        #expect(scenes.first { $0.session == second }?.body == "to the second")
    }

    @Test func anUnknownSceneIsRefusedInOneLineThatListsTheOpenOnes() throws {
        let app = try FakeHost<NotesApp>().relaunch()
        let open = try #require(app.sceneSummaries().first?.session)
        #expect(throws: SceneInputError.unknownScene("nope", open: [open])) { try app.tap("attach", inScene: "nope") }
        let message = SceneInputError.unknownScene(String(repeating: "x", count: 200) + "\nmore", open: [open]).description
        #expect(!message.contains("\n"))
        #expect(message.contains(open))
        #expect(message.count < 200)
    }

    @Test func theLastWindowCannotBeClosed() throws {
        let host = FakeHost<NotesApp>()
        let app = try host.relaunch()
        let only = try #require(app.sceneSummaries().first?.session)
        #expect(!app.elements().map(\.name).contains("close-window"))
        #expect(throws: SceneInputError.self) { try app.closeScene(only) }
        #expect(app.sceneSummaries().map(\.session) == [only])
    }

    @Test func aWindowAcceptsNothingInTheBackground() throws {
        let host = FakeHost<NotesApp>()
        let app = try host.relaunch()
        try host.background(app)
        #expect(app.elements().isEmpty)
        #expect(throws: SceneInputError.self) { try app.openScene() }
        #expect(throws: InputError.inBackground) { try app.tap("attach") }
    }

    @Test func everyWindowIsDrawnAndTheCaretShows() throws {
        let host = FakeHost<NotesApp>()
        let app = try host.relaunch()
        let window = try #require(app.sceneSummaries().first?.session)
        try host.type(app, "body", "hello", scene: window)
        _ = try host.openScene(app)
        let screen = app.screen()
        #expect(screen.contains("Window 1 of 2"))
        #expect(screen.contains("Window 2 of 2 · key window"))
        #expect(screen.contains("hello▏"))
        #expect(try app.screen(ofScene: window).contains("hello▏"))
    }
}

/// Reads saved notes back, as the next launch does.
enum NoteStoreCopy {
    static func load(_ bytes: [UInt8]?) throws -> NoteStore {
        let store = NoteStore()
        try store.load(bytes ?? [])
        return store
    }
}
