import RestorationKit
import Testing

/// A table's selection and scroll position are saved and restored by model identifier.
@Suite("Data source model association")
struct TableRestorationTests {
    final class ItemsTable: TableViewController, DataSourceModelAssociation {
        let items: [String]

        init(_ items: [String]) {
            self.items = items
            super.init()
            restorationIdentifier = "Items"
        }

        func modelIdentifier(forElementAt index: Int) -> String? { items.indices.contains(index) ? items[index] : nil }
        func indexOfElement(withModelIdentifier identifier: String) -> Int? { items.firstIndex(of: identifier) }
    }

    private func relaunchTable(selected: Int, firstVisible: Int, reloadedItems: [String]) throws -> ItemsTable {
        let table = ItemsTable(["alpha", "bravo", "charlie", "delta"])
        table.selectedRow = selected
        table.firstVisibleRow = firstVisible
        let (application, _, _) = try relaunch(table) { delegate, _ in
            delegate.rootAtLaunch = { ItemsTable(reloadedItems) }
        }
        return try #require(application.window.rootViewController as? ItemsTable)
    }

    @Test("selection and first visible item follow their identifiers to new rows")
    func restoresByIdentifier() throws {
        let restored = try relaunchTable(selected: 1, firstVisible: 2, reloadedItems: ["new", "charlie", "alpha", "bravo"])
        #expect(restored.selectedRow == 3)
        #expect(restored.firstVisibleRow == 1)
    }

    @Test("a deleted item restores nothing")
    func deletedItem() throws {
        let restored = try relaunchTable(selected: 1, firstVisible: 2, reloadedItems: ["alpha", "delta"])
        #expect(restored.selectedRow == nil)
        #expect(restored.firstVisibleRow == 0)
    }

    @Test("the archive holds identifiers, not rows")
    func savesIdentifiers() {
        let table = ItemsTable(["alpha", "bravo"])
        table.selectedRow = 1
        var coder = StateCoder()
        table.encodeRestorableState(with: &coder)
        #expect(coder.decodeString(forKey: TableViewController.selectedIdentifierKey) == "bravo")
        #expect(coder.decodeString(forKey: TableViewController.firstVisibleIdentifierKey) == "alpha")
    }
}
