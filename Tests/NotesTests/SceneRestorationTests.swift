@testable import Notes
import RelaunchApp
import RelaunchContract
import RelaunchTestSupport
import RestorationKit
import Testing

/// The story: two windows edited, the app in the background, a photos change kills it, and
/// the relaunch brings back both windows with their text, selection and the picker where it was.
@Suite struct SceneRestorationTests {
    /// Two windows: the first titled and typed into with its caret moved back, the second typed
    /// into with the attachment picker up (photos denied).
    private func twoWindows(_ host: FakeHost<NotesApp>) throws -> (NotesApp, first: String, second: String) {
        let app = try host.relaunch()
        let first = try #require(app.sceneSummaries().first?.session)
        try host.type(app, "title", "Shopping", scene: first)
        try host.type(app, "body", "Milk and eggs", scene: first)
        try host.tap(app, "cursor-left", scene: first)
        try host.tap(app, "select-left", scene: first)
        let second = try host.openScene(app)
        try host.type(app, "title", "Trip", scene: second)
        try host.type(app, "body", "Harbour at noon", scene: second)
        try host.tap(app, "attach", scene: second)
        return (app, first, second)
    }

    @Test func bothWindowsComeBackWithTheirTextSelectionAndPicker() throws {
        let host = FakeHost<NotesApp>()
        let (app, first, second) = try twoWindows(host)
        try host.tap(app, "open-settings", scene: second)
        #expect(host.settingsOpened == [.photos])
        #expect(app.lifecycle == .background)

        let back = try host.relaunch(photos: .allowed)
        #expect(back.state().common.launchOutcome == "restored", "windows back from their activities are a restore")
        let scenes = back.state().scenes
        #expect(scenes.map(\.session) == [first, second], "the same sessions, in the order they were opened")
        #expect(scenes.map(\.title) == ["Shopping", "Trip"])
        #expect(scenes.map(\.body) == ["Milk and eggs", "Harbour at noon"])
        #expect(scenes[0].selectionStart == 11 && scenes[0].selectionLength == 1, "the selection of window 1")
        #expect(scenes[1].selectionStart == 15 && scenes[1].selectionLength == 0, "the caret of window 2")
        #expect(scenes[0].presented == nil)
        #expect(scenes[1].presented == "NoteViewController/AttachmentPickerNavigationController")
        #expect(scenes[1].paths.contains("NoteViewController/AttachmentPickerNavigationController/AttachmentPickerViewController"))
        #expect(back.state().keyScene == second, "the key window comes back through the app-level coder")
        // Now that photos are allowed, the restored picker offers them.
        let offered = try back.elements(ofScene: second).map(\.name)
        #expect(offered.contains("photo:harbour.jpg"))
        try host.tap(back, "photo:harbour.jpg", scene: second)
        #expect(back.state().scenes[1].body == "Harbour at noon[harbour.jpg]")
        #expect(back.state().scenes[1].presented == nil)
    }

    /// The key window is not always the last one opened: it comes back from the app-level coder.
    @Test func theKeyWindowComesBackEvenWhenItIsNotTheLast() throws {
        let host = FakeHost<NotesApp>()
        let (app, first, _) = try twoWindows(host)
        try host.tap(app, "window:1")
        #expect(app.state().keyScene == first)
        try host.background(app)
        #expect(try host.relaunch().state().keyScene == first)
    }

    @Test func aClosedWindowDoesNotComeBack() throws {
        let host = FakeHost<NotesApp>()
        let (app, first, second) = try twoWindows(host)
        try host.perform(try app.closeScene(first), of: app)
        #expect(app.sceneSummaries().map(\.session) == [second])
        try host.background(app)
        let back = try host.relaunch()
        #expect(back.sceneSummaries().map(\.session) == [second])
        #expect(back.store.note("note-1")?.title == "Shopping", "closing a window keeps its note")
    }

    @Test func aFreshLaunchOpensOneWindowWithANewNote() throws {
        let app = try FakeHost<NotesApp>().relaunch()
        let scenes = app.state().scenes
        #expect(app.state().common.launchOutcome == "fresh")
        #expect(scenes.count == 1)
        #expect(scenes.first?.noteID == "note-1")
        #expect(scenes.first?.activityType == "org.relaunch.notes.editing")
        #expect(app.state().keyScene == scenes.first?.session)
    }

    /// The delegate declines another build's archive: the sessions come back (UIKit keeps them) but
    /// without their activities, so each window shows a new note; the notes themselves stay.
    @Test func anotherBuildKeepsTheWindowsWithoutTheirActivitiesAndKeepsTheNotes() throws {
        let host = FakeHost<NotesApp>()
        let (app, first, second) = try twoWindows(host)
        try host.background(app)
        let back = try host.relaunch(build: "2")
        #expect(back.sceneSummaries().map(\.session) == [first, second])
        #expect(back.state().scenes.map(\.body) == ["", ""])
        #expect(back.state().scenes.allSatisfy { $0.presented == nil })
        #expect(back.store.notes.prefix(2).map(\.title) == ["Shopping", "Trip"])
    }

    @Test func theStateJSONHasTheContractsSceneKeys() throws {
        let json = try FakeHost<NotesApp>().relaunch().stateJSON()
        for key in ["\"scenes\":[{", "\"session\":", "\"title\":", "\"activityType\":", "\"paths\":[\"NoteViewController\"]", "\"presented\":null"] {
            #expect(json.contains(key), "\(key) in \(json)")
        }
    }
}
