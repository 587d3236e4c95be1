@testable import RestorationKit
import Testing

/// Restoring hand-made archives that preservation never writes: records naming children their node
/// does not have, a table with two nodes of one name, objects in and out of the controllers' table.
/// Restoration must link only what the records name, where they name it.
@Suite("Restoring hand-made archives")
struct ForgedArchiveRestorationTests {
    private static let restorable = RestorationRegistry.name(of: RestorableNote.self)

    private func archive(_ controllers: [ArchivedController], objects: [ArchivedObject] = []) -> RestorationArchive {
        RestorationArchive(
            header: ArchiveHeader(buildVersion: "1", timestamp: 0, generation: 1), applicationState: [:],
            controllers: controllers, objects: objects)
    }

    /// A record made by `RestorableNote`'s restoration class, its path in a table of its own.
    private func record(_ joined: String, _ relationships: [ArchivedRelationship] = []) -> ArchivedController {
        ArchivedController(
            path: path(joined), className: Self.restorable, restorationClassName: Self.restorable,
            relationships: relationships, state: [:])
    }

    /// A record of node `node` of `table`, made by `RestorableNote`'s restoration class.
    private func record(_ node: Int32, of table: PathTable, _ relationships: [ArchivedRelationship] = []) -> ArchivedController {
        ArchivedController(
            location: PathReference(table: table, node: node), className: Self.restorable,
            restorationClassName: Self.restorable, relationships: relationships, state: StateValues(), views: [])
    }

    @Test("a stack naming controllers its node has no child for gets none of another parent's children")
    func namesBeyondChildren() throws {
        let navigation = NavigationController()
        navigation.restorationIdentifier = "A"
        let delegate = TestDelegate()
        delegate.restorationClassReturns[path("R/A")] = { navigation }
        // Nodes in record order: R, R/A, R/B, R/A/X, R/A/Z, R/B/Y. R/A has two children (X, Z) and
        // names three (X, B, Y): B and Y are children of R and of R/B, not of R/A.
        let report = try restored(
            makeApplication(delegate).launch(restoringFrom: archive([
                record("R", [.init(.child, "A"), .init(.child, "B")]),
                record("R/A", [.init(.pushed, "X"), .init(.pushed, "B"), .init(.pushed, "Y")]),
                record("R/B", [.init(.child, "Y")]),
                record("R/A/X"), record("R/A/Z"), record("R/B/Y"),
            ])))
        #expect(navigation.viewControllers.map(\.restorationIdentifier) == ["X"])
        #expect(report.skipped.filter { $0.reason == .notInWindow }.map(\.path).contains(path("R/B/Y")))
    }

    /// A tab bar T over a forged table with two nodes named P (2 and 3), after another top-level
    /// record (so that T's is not the first), naming `names` as its tabs: distinct nodes come back
    /// as two tabs in order; a node named again, or a name without a node, makes each tab take the
    /// place of the first tab of its name. `expected`: the tabs, as indexes into those made.
    @Test(
        "two nodes of one name under a tab bar (a forged table) come back as the names say",
        arguments: [(["P", "P"], [0, 1]), (["P", "P", "P"], [0]), (["X", "P", "P"], [0])])
    func twoNodesOfOneName(names: [String], expected: [Int]) throws {
        let table = PathTable(parents: [0, 0, 1, 1, 0], identifiers: ["", "T", "P", "P", "Other"], depths: [0, 1, 2, 2, 1])
        let (tabs, made) = try restoreTabs(archive([
            record(4, of: table), record(1, of: table, names.map { .init(.child, $0) }), record(2, of: table),
            record(3, of: table),
        ]))
        #expect(made.count == 2)
        #expect(tabs.viewControllers.map(ObjectIdentifier.init) == expected.map { ObjectIdentifier(made[$0]) })
    }

    @Test("records out of the parents-first order still hand each restoration class its whole path")
    func outOfOrder() throws {
        let delegate = TestDelegate()
        _ = try restored(
            makeApplication(delegate).launch(restoringFrom: archive([
                record("R", [.init(.child, "A")]), record("R/A", [.init(.child, "B")]), record("Q"), record("R/A/B"),
            ])))
        #expect(delegate.log.filter { $0.hasPrefix("restorationClass") } == [
            "restorationClass R", "restorationClass R/A", "restorationClass Q", "restorationClass R/A/B",
        ])
    }

    @Test("a tab named twice between others is one tab, where it was first named")
    func tabNamedTwice() throws {
        let (tabs, made) = try restoreTabs(archive([
            record("T", [.init(.child, "P"), .init(.child, "Q"), .init(.child, "P")]), record("T/P"), record("T/Q"),
        ]))
        #expect(made.count == 2)
        #expect(tabs.viewControllers.map(ObjectIdentifier.init) == made.map(ObjectIdentifier.init))
        #expect(tabs.viewControllers.map(\.restorationIdentifier) == ["P", "Q"])
    }

    @Test("a tab that came back under another tab's identifier is replaced by that tab when it comes")
    func tabRenamed() throws {
        let tabs = TabBarController()
        let renamed = RestorableNote(restorable: "R")
        let real = RestorableNote(restorable: "R")
        let report = try restore(tabs, tabs: ["P": renamed, "R": real])
        #expect(tabs.viewControllers.count == 1 && tabs.viewControllers.first === real)
        #expect(report.notes.contains { $0.hasPrefix("T/P came back with restoration identifier 'R'") })
    }

    @Test("a launched tab replaced by one that came back under another identifier is replaced again by that tab")
    func launchedTabRenamed() throws {
        let tabs = TabBarController()
        let launched = ViewController()
        launched.restorationIdentifier = "P"
        tabs.setViewControllers([launched])
        let renamed = RestorableNote(restorable: "R")
        let real = RestorableNote(restorable: "R")
        try restore(tabs, tabs: ["P": renamed, "R": real])
        #expect(tabs.viewControllers.count == 1 && tabs.viewControllers.first === real)
    }

    /// A tab that takes another tab out of the container when it is itself taken out.
    private final class Companion: ViewController {
        weak var companion: ViewController?
        override func didMove(toParent parent: ViewController?) {
            if parent == nil { companion?.removeFromParent() }
        }
    }

    @Test("tabs replaced while a removal callback takes another tab out land where the tabs are then")
    func callbackMovesTabs() throws {
        let tabs = TabBarController()
        let launched = ["A", "B", "C"].map { name in
            let tab = Companion()
            tab.restorationIdentifier = name
            return tab
        }
        launched[0].companion = launched[1]
        tabs.setViewControllers(launched)
        let restoredA = RestorableNote(restorable: "A")
        let restoredC = RestorableNote(restorable: "C")
        try restore(tabs, tabs: ["A": restoredA, "C": restoredC])
        #expect(tabs.viewControllers.map(ObjectIdentifier.init) == [restoredA, restoredC].map(ObjectIdentifier.init))
    }

    /// A registered object whose restoration parent is another one.
    private final class Item: StateRestoring {
        let parent: Item?
        var decoded = false
        init(parent: Item? = nil) { self.parent = parent }
        var restorationParent: (any StateRestoring)? { parent }
        func encodeRestorableState(with coder: inout StateCoder) {}
        func decodeRestorableState(with coder: StateCoder) { decoded = true }
    }

    @Test("an object under an object restored by its path comes back; one under a missing controller does not")
    func objectParents() throws {
        // Root/Gone has no record: nothing restores it.
        let table = PathTable(
            parents: [0, 0, 1, 2, 0, 4], identifiers: ["", "Root", "Gone", "Kept", "Store", "Thing"], depths: [0, 1, 2, 3, 1, 2])
        let application = makeApplication()
        let store = Item()
        let item = Item(parent: store)
        application.registerObject(forStateRestoration: store, restorationIdentifier: "Store")
        let thing = Item(parent: store)
        application.registerObject(forStateRestoration: item, restorationIdentifier: "Item")
        application.registerObject(forStateRestoration: thing, restorationIdentifier: "Thing")
        let report = try restored(
            application.launch(restoringFrom: archive(
                [record(1, of: table)],
                objects: [
                    ArchivedObject(path: ["Store"], restorationClassName: nil, state: [:]),
                    ArchivedObject(path: ["Store", "Item"], restorationClassName: nil, state: [:]),
                    ArchivedObject(location: PathReference(table: table, node: 3), restorationClassName: nil, state: [:]),
                    // In the controllers' table, under an object restored by its path.
                    ArchivedObject(location: PathReference(table: table, node: 5), restorationClassName: nil, state: [:]),
                ])))
        #expect(report.restoredObjects == [["Store"], ["Store", "Item"], ["Store", "Thing"]])
        #expect(store.decoded && item.decoded && thing.decoded)
        #expect(report.notes == ["object Root/Gone/Kept is not restored: its restoration parent was not"])
    }

    /// Restores a tab bar T naming the keys of `tabs` in order, each key's record made (by its
    /// restoration class) as the controller given; `container` comes back as T.
    @discardableResult
    private func restore(_ container: TabBarController, tabs: KeyValuePairs<String, ViewController>) throws -> RestorationReport {
        container.restorationIdentifier = "T"
        let delegate = TestDelegate()
        delegate.restorationClassReturns[["T"]] = { container }
        for (name, controller) in tabs { delegate.restorationClassReturns[["T", name]] = { controller } }
        let records = [record("T", tabs.map { .init(.child, $0.key) })] + tabs.map { record("T/\($0.key)") }
        return try restored(makeApplication(delegate).launch(restoringFrom: archive(records)))
    }

    /// Restores `archive`, whose root T its restoration class makes as an empty tab bar controller,
    /// and returns that controller and the others the class made, in order.
    private func restoreTabs(_ archive: RestorationArchive) throws -> (TabBarController, [ViewController]) {
        let tabs = TabBarController()
        tabs.restorationIdentifier = "T"
        var made: [ViewController] = []
        let delegate = TestDelegate()
        delegate.restorationClassReturns[["T"]] = { tabs }
        for name in ["P", "Q"] {
            delegate.restorationClassReturns[["T", name]] = {
                let controller = RestorableNote(restorable: name)
                made.append(controller)
                return controller
            }
        }
        _ = try restored(makeApplication(delegate).launch(restoringFrom: archive))
        return (tabs, made)
    }
}
