@testable import RestorationKit
import Testing

/// Small parts of the public surface that no larger test reached: discard reasons by name, a
/// deep path's tail, popping a stack, session identity, and a child found among many by name.
@Suite("Small parts of the surface")
struct SmallSurfaceTests {
    @Test("a discard reason is made from its contract name only")
    func discardReasonNames() {
        for reason in DiscardReason.allCases { #expect(DiscardReason(rawValue: reason.rawValue) == reason) }
        #expect(DiscardReason(rawValue: "no-such-reason") == nil)
        #expect(DiscardReason(rawValue: "") == nil)
    }

    @Test("a record's path suffix is its last identifiers, all of them when it has fewer")
    func pathSuffix() {
        let record = ArchivedController(path: ["A", "B", "C"], className: "X", restorationClassName: nil, relationships: [], state: [:])
        #expect(record.pathSuffix(2) == ["B", "C"])
        #expect(record.pathSuffix(3) == ["A", "B", "C"])
        #expect(record.pathSuffix(10) == ["A", "B", "C"])
        #expect(record.pathSuffix(0) == [])
    }

    @Test("popping a stack removes its top; the root controller stays")
    func popStack() {
        let root = NoteController("Root")
        let top = NoteController("Top")
        let navigation = NavigationController(rootViewController: root)
        navigation.pushViewController(top)
        #expect(navigation.popViewController() === top)
        #expect(top.parent == nil)
        #expect(navigation.popViewController() == nil)
        #expect(navigation.viewControllers.count == 1 && navigation.viewControllers.first === root)
    }

    @Test("selecting a tab says whether there was one to select; a miss leaves the selection")
    func selectTab() {
        let tabs = TabBarController()
        tabs.setViewControllers([NoteController("A"), NoteController("B")])
        #expect(tabs.select(index: 1) && tabs.selectedIndex == 1)
        #expect(!tabs.select(index: 2) && tabs.selectedIndex == 1)
        #expect(tabs.select(restorationIdentifier: "A") && tabs.selectedIndex == 0)
        #expect(!tabs.select(restorationIdentifier: "C") && tabs.selectedIndex == 0)
    }

    @Test("sessions are equal only to themselves, even with one persistent identifier")
    func sessionIdentity() {
        let first = SceneSession(persistentIdentifier: "S", role: .windowApplication)
        let second = SceneSession(persistentIdentifier: "S", role: .windowApplication)
        #expect(first == first)
        #expect(first != second)
    }

    @Test("an open session is found by its persistent identifier only")
    func sessionByIdentifier() {
        let (application, _) = sceneApp(windows: ["A", "B"])
        for session in application.openSessions {
            #expect(application.sceneSession(withIdentifier: session.persistentIdentifier) === session)
        }
        #expect(application.sceneSession(withIdentifier: "no-such-session") == nil)
    }

    @Test("an object under the last of many children is restored: the child is found by name")
    func objectUnderManyChildren() throws {
        final class Query: StateRestoring {
            weak var parent: ViewController?
            var text = ""
            init(parent: ViewController) { self.parent = parent }
            var restorationParent: (any StateRestoring)? { parent }
            func encodeRestorableState(with coder: inout StateCoder) { coder.encode("saved", forKey: "text") }
            func decodeRestorableState(with coder: StateCoder) { text = coder.decodeString(forKey: "text") ?? "" }
        }
        func tree() -> NoteController {
            let root = NoteController("Root")
            for index in 0..<12 { root.addChild(NoteController("C\(index)")) }
            return root
        }
        let before = makeApplication()
        let saved = tree()
        before.window.rootViewController = saved
        let query = Query(parent: saved.children[11])
        before.registerObject(forStateRestoration: query, restorationIdentifier: "Query")
        let archive = try ArchiveCodec.decode(try ArchiveCodec.encode(try #require(try before.preserve(generation: 1, timestamp: 0)))).archive

        let delegate = TestDelegate()
        let launched = tree()
        delegate.rootAtLaunch = { launched }
        let after = makeApplication(delegate)
        let again = Query(parent: launched.children[11])
        after.registerObject(forStateRestoration: again, restorationIdentifier: "Query")
        let report = try restored(after.launch(restoringFrom: archive))
        #expect(report.restoredObjects == [["Root", "C11", "Query"]])
        #expect(again.text == "saved")
        withExtendedLifetime(query) {}
    }
}
