import RestorationKit
import Testing

/// The order restoration asks for each saved path, and what nil means at each step.
@Suite("Restoration lookup order")
struct LookupOrderTests {
    /// A root with four children, one for each way a controller can be found.
    private func fourWays() -> ViewController {
        let root = RestorableNote(restorable: "Root")
        root.addChild(RestorableNote(restorable: "ByClass"))
        root.addChild(NoteController("ByDelegate"))
        root.addChild(NoteController("Existing"))
        root.addChild(NoteController("Scene"))
        return root
    }

    @Test("restoration class, then app delegate, then existing, then storyboard")
    func lookupOrder() throws {
        let existing = NoteController("Existing")
        let (application, delegate, report) = try relaunch(fourWays()) { delegate, registry in
            delegate.restorationClassReturns[["Root"]] = {
                let root = RestorableNote(restorable: "Root")
                root.addChild(existing)
                return root
            }
            delegate.fallback[path("Root/ByDelegate")] = { NoteController("ByDelegate") }
            registry.registerScene("Scene") { NoteController("NotTheSavedOne") }
            registry.registerScene("Existing") { NoteController("Existing") }
        }
        #expect(report.restored.map(\.via) == [.restorationClass, .restorationClass, .appDelegate, .existing, .storyboard])
        #expect(report.restored.map { $0.path.joined(separator: "/") } == [
            "Root", "Root/ByClass", "Root/ByDelegate", "Root/Existing", "Root/Scene",
        ])
        #expect(application.window.rootViewController?.children.contains { $0 === existing } == true)
        #expect(!delegate.log.contains("appDelegate Root"), "a restoration class is asked instead of the delegate")
        #expect(!delegate.log.contains("appDelegate Root/ByClass"))
        #expect(delegate.log.contains("appDelegate Root/Existing"), "the delegate is asked before existing controllers")
        #expect(delegate.log.contains("appDelegate Root/Scene"), "the delegate is asked before the scenes")
        let scene = try #require(application.window.rootViewController?.children.last)
        #expect(scene.restorationIdentifier == "Scene", "a scene is instantiated with the saved restoration identifier")
        #expect(report.notes.isEmpty)
    }

    @Test("a restoration class returning nil skips its subtree and asks no one else")
    func restorationClassNil() throws {
        let root = RestorableNote(restorable: "Root")
        let declined = RestorableNote(restorable: "Declined")
        declined.addChild(NoteController("Below"))
        root.addChild(declined)
        let (_, delegate, report) = try relaunch(root) { delegate, registry in
            delegate.restorationClassDeclines = [path("Root/Declined")]
            delegate.fallback[path("Root/Declined")] = { NoteController("Declined") }
            registry.registerScene("Declined") { NoteController("Declined") }
        }
        #expect(report.restored.map(\.path) == [["Root"]])
        #expect(report.skipped.map(\.reason) == [.restorationClassReturnedNil, .ancestorSkipped])
        #expect(!delegate.log.contains { $0.hasPrefix("appDelegate Root/Declined") })
    }

    @Test("the app delegate returning nil lets the search go on")
    func appDelegateNil() throws {
        let root = RestorableNote(restorable: "Root")
        root.addChild(NoteController("Child", note: "kept"))
        let (application, delegate, report) = try relaunch(root) { _, registry in
            registry.registerScene("Child") { NoteController("Child") }
        }
        #expect(delegate.log.contains("appDelegate Root/Child"))
        #expect(report.via(path("Root/Child")) == .storyboard)
        let child = try #require(application.window.rootViewController?.children.first as? NoteController)
        #expect(child.note == "kept")
    }

    @Test("a controller created at launch with the same path is found as existing")
    func existingAtLaunch() throws {
        let root = NoteController("Root", note: "saved")
        let (application, _, report) = try relaunch(root) { delegate, _ in
            delegate.rootAtLaunch = { NoteController("Root") }
        }
        #expect(report.via(["Root"]) == .existing)
        #expect((application.window.rootViewController as? NoteController)?.note == "saved")
    }

    @Test("a path nothing finds is skipped with its subtree")
    func notFound() throws {
        let root = RestorableNote(restorable: "Root")
        let lost = NoteController("Lost")
        lost.addChild(NoteController("Below"))
        root.addChild(lost)
        let (_, _, report) = try relaunch(root)
        #expect(report.skipped.map(\.reason) == [.notFound, .ancestorSkipped])
    }

    @Test("an unregistered restoration class skips the path")
    func unregisteredClass() throws {
        let before = makeApplication()
        before.window.rootViewController = RestorableNote(restorable: "Root")
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        let after = Application(buildVersion: "1", delegate: TestDelegate())
        let report = try restored(after.launch(restoringFrom: archive))
        #expect(report.skipped.first?.reason == .restorationClassNotRegistered(RestorationRegistry.name(of: RestorableNote.self)))
    }

    @Test("a returned controller of another class is linked but not decoded")
    func classMismatch() throws {
        let root = RestorableNote(restorable: "Root")
        root.addChild(NoteController("Child", note: "typed"))
        final class Other: NoteController {}
        let (application, _, report) = try relaunch(root) { delegate, _ in
            delegate.fallback[path("Root/Child")] = { Other("Child") }
        }
        #expect(report.restored.last?.decoded == false)
        #expect(report.notes.count == 1)
        let child = try #require(application.window.rootViewController?.children.first as? Other)
        #expect(child.decodeCount == 0)
        #expect(child.note == "")
        // UIKit sends applicationFinishedRestoringState "after all objects have had a chance to decode
        // their state" to the objects restored with their state; this one never had its state.
        #expect(!child.finishedRestoring)
        #expect((application.window.rootViewController as? NoteController)?.finishedRestoring == true)
    }

    @Test("a controller returned without the saved identifier is restored with a note that it drops out")
    func identifierChanged() throws {
        let root = RestorableNote(restorable: "Root")
        root.addChild(NoteController("Child", note: "typed"))
        let (application, _, report) = try relaunch(root) { delegate, _ in
            delegate.fallback[path("Root/Child")] = { NoteController("Renamed") }
        }
        #expect(report.via(path("Root/Child")) == .appDelegate)
        #expect(report.notes == [
            "Root/Child came back with restoration identifier 'Renamed' instead of 'Child'; "
                + "the next preservation will not save it under this path",
        ])
        #expect(application.window.restorationPaths == [["Root"], ["Root", "Renamed"]])
    }

    @Test("a record with an empty path is skipped, not trapped on")
    func emptyPath() throws {
        let archive = RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:],
            controllers: [
                ArchivedController(path: [], className: "X", restorationClassName: nil, relationships: [], state: [:]),
                ArchivedController(
                    path: [], className: "X", restorationClassName: RestorationRegistry.name(of: RestorableNote.self),
                    relationships: [.init(.child, "A")], state: [:]),
            ])
        let delegate = TestDelegate()
        let report = try restored(makeApplication(delegate).launch(restoringFrom: archive))
        #expect(report.restored.isEmpty)
        #expect(report.skipped.map(\.path) == [[], []])
        #expect(report.skipped.map(\.reason) == [.emptyPath, .emptyPath])
        #expect(!delegate.log.contains { $0.hasPrefix("appDelegate") || $0.hasPrefix("restorationClass") })
    }

    @Test("controllers decode parents first in saved order, all before any finishes restoring")
    func decodeOrder() throws {
        let tabs = RestorableNote(restorable: "Tabs")
        let first = NoteController("First")
        first.addChild(NoteController("Inner"))
        tabs.addChild(first)
        tabs.addChild(NoteController("Second"))
        first.present(NoteController("Modal"), animated: false)
        let (_, delegate, report) = try relaunch(tabs) { delegate, _ in
            delegate.restorationClassReturns[["Tabs"]] = {
                let made = RestorableNote(restorable: "Tabs")
                let first = NoteController("First")
                first.addChild(NoteController("Inner"))
                made.addChild(first)
                made.addChild(NoteController("Second"))
                return made
            }
            delegate.fallback[path("Tabs/First/Modal")] = { NoteController("Modal") }
        }
        #expect(report.restored.count == 5)
        let calls = delegate.log.filter { $0.hasPrefix("decode ") || $0.hasPrefix("finished ") }
        #expect(calls == [
            "decode Tabs", "decode First", "decode Inner", "decode Modal", "decode Second",
            "finished Tabs", "finished First", "finished Inner", "finished Modal", "finished Second",
        ])
    }

    @Test("launch calls the delegate in UIKit's order")
    func delegateOrder() throws {
        let root = RestorableNote(restorable: "Root")
        let (application, delegate, _) = try relaunch(root)
        #expect(delegate.log == [
            "willFinishLaunching", "shouldRestore build=1", "restorationClass Root", "decode Root", "finished Root",
            "didDecode app=delegate-was-here", "didFinishLaunching",
        ])
        let restored = try #require(application.window.rootViewController as? RestorableNote)
        #expect(restored.decodeCount == 1 && restored.finishedRestoring)
        #expect(application.state == .active)
    }

    @Test("shouldRestore returning false restores nothing")
    func declined() throws {
        let before = makeApplication()
        before.window.rootViewController = RestorableNote(restorable: "Root")
        let archive = try #require(try before.preserve(generation: 1, timestamp: 0))
        let delegate = TestDelegate()
        delegate.shouldRestore = false
        let after = makeApplication(delegate)
        #expect(after.launch(restoringFrom: archive) == .declined(.declined))
        #expect(after.window.rootViewController == nil)
        #expect(delegate.log.last == "didFinishLaunching")
    }
}
