@testable import RestorationKit
import Testing

/// The guards and fast paths mutation testing found no test for: a window without a root, a cycle of
/// restoration parents, the sorted value store's in-order fast path, and controller references
/// encoded with and without restoration identifiers.
@Suite("Guards and fast paths")
struct GuardTests {
    /// An object whose restoration parent is set by the test (held weakly, as apps hold theirs).
    final class Node: StateRestoring {
        weak var parent: (any StateRestoring)?
        var restorationParent: (any StateRestoring)? { parent }
        func encodeRestorableState(with coder: inout StateCoder) { coder.encode(1, forKey: "k") }
        func decodeRestorableState(with coder: StateCoder) {}
    }

    @Test("one write larger than twice the writer's buffer grows it to hold every byte")
    func writerGrowsForLargeWrite() {
        var writer = ByteWriter(capacity: 64)
        let large = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        writer.append(7 as UInt8)
        writer.append(raw: large)
        #expect(writer.capacity >= writer.count && writer.count == 1_001)
        #expect(writer.bytes == [7] + large)
    }

    /// A controller that takes another one out of its container when it is about to leave it.
    private final class Leaving: ViewController {
        weak var alsoRemove: ViewController?
        override func willMove(toParent parent: ViewController?) {
            if parent == nil { alsoRemove?.removeFromParent() }
        }
    }

    @Test("a child replaced while its leaving callback empties the places before it is replaced all the same")
    func replaceWhileCallbackRemoves() {
        let container = ViewController()
        let first = ViewController()
        let last = Leaving()
        last.alsoRemove = first
        container.addChild(first)
        container.addChild(last)
        let replacement = ViewController()
        container.replaceChild(at: 1, with: replacement)
        #expect(container.children.count == 1 && container.children.first === replacement)
        #expect(last.parent == nil && first.parent == nil && replacement.parent === container)
    }

    @Test("a window without a root contains no controller; one with a root contains only its hierarchy")
    func windowContains() {
        let window = Window()
        let root = NoteController("Root")
        let child = NoteController("Child")
        let stranger = NoteController("Stranger")
        #expect(!window.contains(root))
        #expect(!window.contains(stranger))
        window.rootViewController = root
        root.addChild(child)
        #expect(window.contains(root) && window.contains(child))
        #expect(!window.contains(stranger))
    }

    @Test("registered objects whose restoration parents form a cycle are left out; preservation ends")
    func parentCycle() throws {
        let application = makeApplication()
        let first = Node()
        let second = Node()
        let third = Node()
        first.parent = second
        second.parent = third
        third.parent = first
        let plain = Node()
        application.registerObject(forStateRestoration: first, restorationIdentifier: "First")
        application.registerObject(forStateRestoration: second, restorationIdentifier: "Second")
        application.registerObject(forStateRestoration: third, restorationIdentifier: "Third")
        application.registerObject(forStateRestoration: plain, restorationIdentifier: "Plain")
        #expect(application.restorationPath(ofObject: first) == nil)
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.objects.map(\.path) == [["Plain"]])
        withExtendedLifetime((first, second, third, plain)) {}
    }

    @Test("an object chain of 64 keeps its path; a 65th object is left out")
    func parentChainDepth() {
        let application = makeApplication()
        var chain = [Node()]
        application.registerObject(forStateRestoration: chain[0], restorationIdentifier: "n0")
        for index in 1...70 {
            let node = Node()
            node.parent = chain[index - 1]
            chain.append(node)
            application.registerObject(forStateRestoration: node, restorationIdentifier: "n\(index)")
        }
        #expect(application.restorationPath(ofObject: chain[63]) == (0...63).map { "n\($0)" })
        #expect(application.restorationPath(ofObject: chain[64]) == nil)
        withExtendedLifetime(chain) {}
    }

    @Test("the value store agrees with a dictionary over random sets, replacements and removals")
    func stateValuesModel() {
        var random = SplitMix64(seed: 0x5EED)
        for round in 0..<200 {
            var values = StateValues()
            var model: [String: StateValue] = [:]
            for _ in 0..<Int(random.next() % 24) {
                let key = "k\(random.next() % 12)"
                let value: StateValue? = random.next() % 4 == 0 ? nil : .int(Int64(random.next() % 100))
                values[key] = value
                model[key] = value
                let keys = values.entries.map(\.key)
                #expect(keys == keys.sorted() && Set(keys).count == keys.count, "round \(round): \(keys)")
            }
            #expect(values.dictionary == model, "round \(round)")
            for index in 0..<12 { #expect(values["k\(index)"] == model["k\(index)"], "round \(round), k\(index)") }
            #expect(values.count == model.count && values.isEmpty == model.isEmpty)
            #expect(StateValues(model) == values, "round \(round)")
        }
    }

    @Test("controllers without a restoration identifier are not among the encoded controllers")
    func encodedControllers() {
        let named = NoteController("Named")
        let unnamed = NoteController(nil)
        var coder = StateCoder()
        coder.encode([unnamed, named], forKey: "children")
        #expect(coder.encodedControllers.map(\.restorationIdentifier) == ["Named"])
        #expect(coder.decodeStrings(forKey: "children") == ["Named"])
        var shared = StateCoder()
        shared.encode([named], forKey: "first")
        shared.encode([unnamed, NoteController("Other")], forKey: "second")
        #expect(shared.encodedControllers.map(\.restorationIdentifier) == ["Named", "Other"])
    }

    @Test("child lookups in and out of the saved order find each child, the last of a repeated name wins")
    func childLookup() {
        let controllers = ["A", "B", "C"].map { NoteController($0) }
        let inOrder = RestoredChildren(zip(["A", "B", "C"], controllers).map { ($0, $1) }, distinct: true)
        #expect(inOrder["A"] === controllers[0] && inOrder["B"] === controllers[1] && inOrder["C"] === controllers[2])
        #expect(inOrder["A"] === controllers[0] && inOrder["D"] == nil)
        let outOfOrder = RestoredChildren(zip(["A", "B", "C"], controllers).map { ($0, $1) }, distinct: true)
        #expect(outOfOrder["B"] === controllers[1] && outOfOrder["A"] === controllers[0])
        let repeated = RestoredChildren([("A", controllers[0]), ("A", controllers[1])], distinct: false)
        #expect(repeated["A"] === controllers[1])
    }

    @Test("path references are equal exactly when their paths are, within one table and across tables")
    func pathReferenceEquality() {
        // "", A, A/B, C, C/B: two nodes named B at the same depth under different parents.
        let table = PathTable(parents: [0, 0, 1, 0, 3], identifiers: ["", "A", "B", "C", "B"], depths: [0, 1, 2, 1, 2])
        let references = (0..<5).map { PathReference(table: table, node: Int32($0)) }
        let copies = references.map { PathReference(path: $0.path) }
        for left in references {
            for right in references + copies {
                #expect((left == right) == (left.path == right.path), "\(left.path) vs \(right.path)")
                #expect(left.equals(right.path) == (left.path == right.path), "\(left.path) vs \(right.path)")
            }
        }
    }

    @Test("deselecting a row removes only that row from a multiple selection")
    func deselectRow() {
        let table = TableView()
        table.allowsMultipleSelection = true
        let rows = (0..<3).map { IndexPath(row: $0, section: 0) }
        rows.forEach(table.selectRow(at:))
        table.deselectRow(at: rows[1])
        #expect(table.indexPathsForSelectedRows == [rows[0], rows[2]])
    }

    @Test("a navigation controller shows its bar unless told to hide it")
    func navigationBarShown() {
        #expect(!NavigationController().isNavigationBarHidden)
        #expect(!NavigationController(rootViewController: NoteController("Root")).isNavigationBarHidden)
    }

    @Test("a descendant is found among the children, then the presented controller, by its identifier only")
    func descendant() {
        let root = NoteController("Root")
        let child = NoteController("Child")
        let modal = NoteController("Modal")
        root.addChild(child)
        #expect(root.present(modal, animated: false))
        #expect(root.descendant(withRestorationIdentifier: "Child") === child)
        #expect(root.descendant(withRestorationIdentifier: "Modal") === modal)
        #expect(root.descendant(withRestorationIdentifier: "Other") == nil)
    }
}
