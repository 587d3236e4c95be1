/// Maps a table's rows to model identifiers and back (`UIDataSourceModelAssociation`).
///
/// Rows move when data changes between launches; identifiers do not, so the selection and scroll
/// position are saved by identifier and restored to wherever that item is now.
public protocol DataSourceModelAssociation: AnyObject {
    /// The model identifier of the item at `index`, or nil when there is none.
    func modelIdentifier(forElementAt index: Int) -> String?
    /// Where the item with `identifier` is now, or nil when it no longer exists.
    func indexOfElement(withModelIdentifier identifier: String) -> Int?
}

/// A list with a selection and a scroll position, saved and restored by model identifier.
///
/// Adopt `DataSourceModelAssociation` in the subclass (or override `dataSource`); without one the
/// selection and scroll position are not preserved, as UIKit does.
open class TableViewController: ViewController {
    /// The key of the selected item's model identifier in the saved state.
    public static let selectedIdentifierKey = "TableViewController.selectedModelIdentifier"
    /// The key of the first visible item's model identifier in the saved state.
    public static let firstVisibleIdentifierKey = "TableViewController.firstVisibleModelIdentifier"

    /// The selected row.
    public var selectedRow: Int?
    /// The first visible row (the scroll position).
    public var firstVisibleRow = 0

    /// A table with nothing selected, scrolled to the top.
    public override init() { super.init() }

    /// Who maps rows to identifiers; by default the controller itself when it adopts the protocol.
    open var dataSource: (any DataSourceModelAssociation)? { self as? any DataSourceModelAssociation }

    /// Saves the selection and first visible row as model identifiers; call `super` when overriding.
    open override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        guard let dataSource else { return }
        if let row = selectedRow, let identifier = dataSource.modelIdentifier(forElementAt: row) {
            coder.encode(identifier, forKey: Self.selectedIdentifierKey)
        }
        if let identifier = dataSource.modelIdentifier(forElementAt: firstVisibleRow) {
            coder.encode(identifier, forKey: Self.firstVisibleIdentifierKey)
        }
    }

    /// Restores the selection and scroll position by identifier; an item that is gone restores nothing.
    open override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        guard let dataSource else { return }
        if let identifier = coder.decodeString(forKey: Self.selectedIdentifierKey) {
            selectedRow = dataSource.indexOfElement(withModelIdentifier: identifier)
        }
        if let identifier = coder.decodeString(forKey: Self.firstVisibleIdentifierKey),
            let row = dataSource.indexOfElement(withModelIdentifier: identifier)
        {
            firstVisibleRow = row
        }
    }
}
