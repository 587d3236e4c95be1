import RestorationKit
import Testing

/// Controllers the app made at launch, found again as existing: among the parent's children and
/// what it presents, by identifier, while the app changes the children during restoration.
@Suite("Existing controllers")
struct ExistingControllerTests {
    @Test("a controller the parent presents at launch is found as existing, by its identifier only")
    func presentedAtLaunch() throws {
        let root = NoteController("Root")
        root.addChild(NoteController("Child", note: "child"))
        root.present(NoteController("Modal", note: "saved"), animated: false)
        let modal = NoteController("Modal")
        let (application, _, report) = try relaunch(root) { delegate, _ in
            delegate.rootAtLaunch = {
                let root = NoteController("Root")
                root.present(modal, animated: false)
                return root
            }
        }
        #expect(report.via(path("Root/Modal")) == .existing)
        #expect(modal.note == "saved")
        #expect(application.window.rootViewController?.presentedViewController === modal)
        // Child is neither a child nor the presented controller at launch: nothing finds it.
        #expect(report.skipped.map(\.path) == [path("Root/Child")])
        #expect(report.skipped.map(\.reason) == [.notFound])
    }

    @Test("children the app delegate moves while restoring are found where they are now")
    func childrenMovedWhileRestoring() throws {
        let saved = NoteController("Root")
        for (name, note) in [("Zero", "z"), ("First", "f"), ("Second", "s")] { saved.addChild(NoteController(name, note: note)) }
        // At launch: Zero, Placeholder, Second. Asked for First, the delegate moves Placeholder to
        // the end (after Zero was found): Second is then at index 1, no longer at 2.
        let root = NoteController("Root")
        let placeholder = NoteController("Placeholder")
        let second = NoteController("Second")
        for child in [NoteController("Zero"), placeholder, second] { root.addChild(child) }
        let (_, _, report) = try relaunch(saved) { delegate, _ in
            delegate.rootAtLaunch = { root }
            delegate.fallback[path("Root/First")] = {
                placeholder.removeFromParent()
                root.addChild(placeholder)
                return NoteController("First")
            }
        }
        #expect(report.via(path("Root/Zero")) == .existing)
        #expect(report.via(path("Root/Second")) == .existing)
        #expect(second.note == "s")
        #expect(placeholder.note == "")
        #expect(report.notes.isEmpty)
    }
}
