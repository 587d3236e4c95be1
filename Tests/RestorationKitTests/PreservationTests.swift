import RestorationKit
import Testing

/// What preservation records, what it skips and what it refuses.
@Suite("Preservation")
struct PreservationTests {
    @Test("a controller without an identifier is skipped with its children and what it presents")
    func skipsUnidentifiedSubtree() throws {
        let application = makeApplication()
        let root = NoteController("Root")
        let anonymous = NoteController(nil)
        anonymous.addChild(NoteController("Child"))
        anonymous.present(NoteController("Presented"), animated: false)
        root.addChild(anonymous)
        root.addChild(NoteController("Sibling"))
        application.window.rootViewController = root
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.controllers.map(\.path) == [["Root"], ["Root", "Sibling"]])
        #expect(archive.controllers[0].relationships == [ArchivedRelationship(.child, "Sibling")])
    }

    @Test("two controllers with the same path are an error naming both")
    func duplicatePath() throws {
        final class First: ViewController {}
        final class Second: ViewController {}
        let application = makeApplication()
        let root = NoteController("Root")
        let first = First()
        first.restorationIdentifier = "Same"
        let second = Second()
        second.restorationIdentifier = "Same"
        root.addChild(first)
        root.addChild(second)
        application.window.rootViewController = root
        let error = #expect(throws: PreservationError.self) { try application.preserve(generation: 1, timestamp: 0) }
        let duplicate = try #require(error)
        #expect(duplicate.code == .duplicatePath)
        #expect(duplicate.path == ["Root", "Same"])
        let classes = try #require(duplicate.classes)
        #expect(classes.first.hasSuffix("First") && classes.second.hasSuffix("Second"))
        #expect(duplicate.description.contains("Root/Same"))
    }

    @Test("among many siblings (past the short list's 16), a later one of an earlier one's identifier is refused")
    func duplicateAmongMany() throws {
        let application = makeApplication()
        let root = NoteController("Root")
        for index in 0..<20 { root.addChild(NoteController("Child\(index)")) }
        root.addChild(NoteController("Child3"))
        application.window.rootViewController = root
        let error = #expect(throws: PreservationError.self) { try application.preserve(generation: 1, timestamp: 0) }
        #expect(error?.path == ["Root", "Child3"])
        root.children.last?.removeFromParent()
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.controllers.count == 21)
    }

    @Test("a custom container that encodes a child under two keys preserves it once, its children in order")
    func childEncodedTwice() throws {
        final class Container: ViewController {
            override func encodeRestorableState(with coder: inout StateCoder) {
                coder.encode(children, forKey: "children")
                if let first = children.first { coder.encode(first, forKey: "selected") }
            }
        }
        let application = makeApplication()
        let container = Container()
        container.restorationIdentifier = "Root"
        container.addChild(NoteController("A"))
        container.addChild(NoteController("B"))
        application.window.rootViewController = container
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.controllers.map(\.path) == [["Root"], ["Root", "A"], ["Root", "B"]])
        #expect(archive.controllers[0].relationships == [.init(.child, "A"), .init(.child, "B")])
    }

    @Test("each record holds class, restoration class, relationships and state, parents first")
    func recordContents() throws {
        let application = makeApplication()
        let tabs = TabBarController()
        tabs.restorationIdentifier = "Tabs"
        let navigation = NavigationController(rootViewController: NoteController("List"))
        navigation.restorationIdentifier = "Nav"
        navigation.pushViewController(NoteController("Detail", note: "d"))
        let second = RestorableNote(restorable: "Second", note: "s")
        tabs.setViewControllers([navigation, second])
        tabs.select(index: 1)
        second.present(NoteController("Modal"), animated: false)
        application.window.rootViewController = tabs

        let archive = try #require(try application.preserve(generation: 7, timestamp: 99))
        #expect(archive.controllers.map { $0.path.joined(separator: "/") } == [
            "Tabs", "Tabs/Nav", "Tabs/Nav/List", "Tabs/Nav/Detail", "Tabs/Second", "Tabs/Second/Modal",
        ])
        #expect(archive.controllers[0].relationships == [
            .init(.child, "Nav"), .init(.child, "Second"), .init(.selectedTab, "Second"),
        ])
        #expect(archive.controllers[1].relationships == [.init(.pushed, "List"), .init(.pushed, "Detail")])
        #expect(archive.controllers[4].relationships == [.init(.presented, "Modal")])
        #expect(archive.controllers[4].className == second.className)
        #expect(archive.controllers[4].restorationClassName == RestorationRegistry.name(of: RestorableNote.self))
        #expect(archive.controllers[3].restorationClassName == nil)
        #expect(archive.controllers[3].state == ["note": .string("d")])
        #expect(archive.header == ArchiveHeader(buildVersion: "1", timestamp: 99, generation: 7))
        #expect(archive.applicationState[StateCoder.bundleVersionKey] == .string("1"))
        #expect(archive.applicationState["app"] == .string("delegate-was-here"))
    }

    @Test("willEncode runs after shouldSave, with the app-level keys, and what it encodes is saved")
    func willEncode() throws {
        let delegate = TestDelegate()
        let application = makeApplication(delegate)
        application.window.rootViewController = NoteController("Root")
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(delegate.log == ["shouldSave", "willEncode build=1"])
        #expect(archive.applicationState["willEncode"] == .string("will-encode-was-here"))
    }

    @Test("shouldSaveApplicationState returning false preserves nothing")
    func shouldSaveFalse() throws {
        let delegate = TestDelegate()
        delegate.shouldSave = false
        let application = makeApplication(delegate)
        application.window.rootViewController = NoteController("Root")
        #expect(try application.preserve(generation: 1, timestamp: 0) == nil)
        #expect(delegate.log == ["shouldSave"], "nothing is encoded after a no")
    }
}
