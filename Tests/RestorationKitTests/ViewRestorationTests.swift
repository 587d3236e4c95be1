import RestorationKit
import Testing

/// Views with restoration identifiers save and restore their own state, with their controller only.
@Suite("Restoring views")
struct ViewRestorationTests {
    /// A two-section list: "fruit" then "vegetables", mapped to model identifiers.
    class Grocery: TableViewController, DataSourceModelAssociation {
        var sections: [[String]]
        let scroll = ScrollView()
        let notes = TextView()
        let organic = Switch()

        init(_ identifier: String?, sections: [[String]], tableIdentifier: String? = "Table") {
            self.sections = sections
            super.init()
            restorationIdentifier = identifier
            tableView.restorationIdentifier = tableIdentifier
            tableView.allowsMultipleSelection = true
            scroll.restorationIdentifier = "Scroll"
            notes.restorationIdentifier = "Notes"
            organic.restorationIdentifier = "Organic"
            for view in [scroll, notes, organic] { tableView.addSubview(view) }
        }

        func modelIdentifier(forElementAt indexPath: IndexPath, in view: View) -> String? {
            sections.indices.contains(indexPath.section) && sections[indexPath.section].indices.contains(indexPath.row)
                ? sections[indexPath.section][indexPath.row] : nil
        }

        func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
            for (section, rows) in sections.enumerated() {
                if let row = rows.firstIndex(of: identifier) { return IndexPath(row: row, section: section) }
            }
            return nil
        }
    }

    private func saved() -> Grocery {
        let list = Grocery("List", sections: [["apple", "banana", "cherry"], ["kale", "leek"]])
        list.tableView.selectRow(at: IndexPath(row: 1, section: 0))
        list.tableView.selectRow(at: IndexPath(row: 0, section: 1))
        list.tableView.firstVisibleRow = IndexPath(row: 2, section: 0)
        list.tableView.contentOffset = (0, 88)
        list.scroll.contentOffset = (12.5, 300)
        list.notes.text = "no plastic bags"
        list.notes.selectedRange = 3..<10
        list.organic.isOn = true
        return list
    }

    private func relaunchList(_ list: Grocery, reloaded: @escaping () -> Grocery) throws -> (Grocery, RestorationReport) {
        let (application, _, report) = try relaunch(list) { delegate, _ in delegate.rootAtLaunch = reloaded }
        return (try #require(application.window.rootViewController as? Grocery), report)
    }

    @Test("scroll offset, text and selection, and a switch come back")
    func simpleViews() throws {
        let (restored, report) = try relaunchList(saved()) { Grocery("List", sections: [["apple"]]) }
        #expect(restored.scroll.contentOffset == (12.5, 300))
        #expect(restored.tableView.contentOffset == (0, 88))
        #expect(restored.notes.text == "no plastic bags")
        #expect(restored.notes.selectedRange == 3..<10)
        #expect(restored.organic.isOn)
        #expect(report.notes.isEmpty)
    }

    @Test("a multiple selection across sections and the first visible row follow their identifiers")
    func tableSelection() throws {
        let (restored, _) = try relaunchList(saved()) {
            Grocery("List", sections: [["leek", "kale"], ["new", "cherry", "banana", "apple"]])
        }
        #expect(restored.tableView.indexPathsForSelectedRows == [IndexPath(row: 2, section: 1), IndexPath(row: 1, section: 0)])
        #expect(restored.tableView.firstVisibleRow == IndexPath(row: 1, section: 1))
    }

    @Test("items deleted since restore no selection and no scroll row")
    func deletedItems() throws {
        let (restored, _) = try relaunchList(saved()) { Grocery("List", sections: [["apple"], ["leek"]]) }
        #expect(restored.tableView.indexPathsForSelectedRows.isEmpty)
        #expect(restored.tableView.firstVisibleRow == IndexPath(row: 0, section: 0))
    }

    @Test("the table view saves identifiers, not rows, and only through its data source")
    func savesIdentifiers() {
        let list = saved()
        var coder = StateCoder()
        list.tableView.encodeRestorableState(with: &coder)
        #expect(coder.decodeStrings(forKey: TableView.selectedIdentifiersKey) == ["banana", "kale"])
        #expect(coder.decodeString(forKey: TableView.firstVisibleIdentifierKey) == "cherry")
        list.tableView.dataSource = nil
        var bare = StateCoder()
        list.tableView.encodeRestorableState(with: &bare)
        #expect(!bare.contains(TableView.selectedIdentifiersKey) && bare.contains(ScrollView.contentOffsetYKey))
    }

    @Test("a view without an identifier, or under a controller without one, is not preserved")
    func onlyWithController() throws {
        let application = makeApplication()
        let root = NoteController("Root")
        let anonymous = Grocery(nil, sections: [["a"]])
        root.addChild(anonymous)
        root.addChild(Grocery("Named", sections: [["a"]], tableIdentifier: nil))
        application.window.rootViewController = root
        let archive = try #require(try application.preserve(generation: 1, timestamp: 0))
        #expect(archive.controllers.map(\.path) == [["Root"], ["Root", "Named"]])
        #expect(archive.controllers[1].views.map(\.identifier) == ["Scroll", "Notes", "Organic"])
        #expect(archive.controllers[0].views.isEmpty)

        let anonymousRoot = makeApplication()
        anonymousRoot.window.rootViewController = Grocery(nil, sections: [["a"]])
        #expect(try anonymousRoot.preserve(generation: 1, timestamp: 0)?.controllers.isEmpty == true)
    }

    @Test("views are decoded only when their controller is, after it, and finish after every controller")
    func decodedWithController() throws {
        final class Other: Grocery {}
        let (application, _, report) = try relaunch(saved()) { delegate, _ in
            delegate.rootAtLaunch = { Other("List", sections: [["banana"]]) }
        }
        let restored = try #require(application.window.rootViewController as? Other)
        #expect(report.restored.first?.decoded == false)
        #expect(!restored.organic.isOn && restored.notes.text.isEmpty, "a controller not decoded keeps its views as they are")

        final class Logged: TextView {
            var log: [String] = []
            override func decodeRestorableState(with coder: StateCoder) { log.append("decode"); super.decodeRestorableState(with: coder) }
            override func applicationFinishedRestoringState() { log.append("finished") }
        }
        let before = NoteController("Root")
        let typed = Logged()
        typed.restorationIdentifier = "Field"
        typed.text = "abc"
        before.view.addSubview(typed)
        let field = Logged()
        field.restorationIdentifier = "Field"
        let (_, _, second) = try relaunch(before) { delegate, _ in
            delegate.rootAtLaunch = {
                let made = NoteController("Root")
                made.view.addSubview(field)
                return made
            }
        }
        #expect(second.restored.count == 1)
        #expect(field.text == "abc")
        #expect(field.log == ["decode", "finished"])
    }

    @Test("a view that is gone or of another class at restoration is noted, not decoded")
    func viewMismatch() throws {
        let before = NoteController("Root")
        let text = TextView()
        text.restorationIdentifier = "A"
        text.text = "kept?"
        let toggle = Switch()
        toggle.restorationIdentifier = "B"
        toggle.isOn = true
        before.view.addSubview(text)
        before.view.addSubview(toggle)
        let replaced = ScrollView()
        let (_, _, report) = try relaunch(before) { delegate, _ in
            delegate.rootAtLaunch = {
                let made = NoteController("Root")
                replaced.restorationIdentifier = "A"
                made.view.addSubview(replaced)
                return made
            }
        }
        #expect(report.notes.count == 2)
        #expect(report.notes.contains { $0.hasPrefix("Root/A: saved as RestorationKit.TextView") })
        #expect(report.notes.contains { $0.hasPrefix("Root/B: no such view") })
    }

    @Test("two views of one controller with the same identifier cannot be preserved")
    func duplicateView() throws {
        let application = makeApplication()
        let root = NoteController("Root")
        let first = Switch()
        first.restorationIdentifier = "Same"
        let second = TextView()
        second.restorationIdentifier = "Same"
        root.view.addSubview(first)
        first.addSubview(second)
        application.window.rootViewController = root
        let error = #expect(throws: PreservationError.self) { try application.preserve(generation: 1, timestamp: 0) }
        #expect(error?.path == ["Root", "Same"])
    }

    @Test("index paths order by section, then row")
    func indexPathOrder() {
        let paths = [IndexPath(row: 0, section: 1), IndexPath(row: 5, section: 0), IndexPath(row: 1, section: 0)]
        #expect(paths.sorted() == [IndexPath(row: 1, section: 0), IndexPath(row: 5, section: 0), IndexPath(row: 0, section: 1)])
        #expect(IndexPath(row: 2, section: 3).description == "3.2")
    }

    @Test("a text selection that no longer fits the text is not restored")
    func selectionClamped() {
        let view = TextView()
        var coder = StateCoder()
        coder.encode("abc", forKey: TextView.textKey)
        coder.encode(["2", "5"], forKey: TextView.selectionKey)
        view.decodeRestorableState(with: coder)
        #expect(view.text == "abc" && view.selectedRange == 0..<0)
        view.text = "abcdef"
        view.selectedRange = 4..<6
        view.text = "ab"
        #expect(view.selectedRange == 2..<2, "shortening the text moves the selection inside it")
    }
}
