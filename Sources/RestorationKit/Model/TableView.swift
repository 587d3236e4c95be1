/// Maps a table's rows to model identifiers and back (`UIDataSourceModelAssociation`).
///
/// Rows move when data changes between launches; identifiers do not, so the selection and the scroll
/// position are saved by identifier and restored to wherever those items are now.
public protocol DataSourceModelAssociation: AnyObject {
    /// The model identifier of the item at `indexPath` in `view`, or nil when there is none.
    func modelIdentifier(forElementAt indexPath: IndexPath, in view: View) -> String?
    /// Where the item with `identifier` is now in `view`, or nil when it no longer exists.
    func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath?
}

/// A sectioned list with a selection (`UITableView`): with a restoration identifier and a data source
/// that adopts `DataSourceModelAssociation`, its selection and first visible row are restored by
/// model identifier; without the association only the content offset is, as in UIKit.
open class TableView: ScrollView {
    /// The key of the selected items' model identifiers in the saved state.
    public static let selectedIdentifiersKey = "TableView.selectedModelIdentifiers"
    /// The key of the first visible item's model identifier in the saved state.
    public static let firstVisibleIdentifierKey = "TableView.firstVisibleModelIdentifier"

    /// Who maps rows to model identifiers (held weakly, as UIKit holds its data source).
    public weak var dataSource: (any DataSourceModelAssociation)?
    /// Whether more than one row may be selected.
    public var allowsMultipleSelection = false
    /// The selected rows, in order.
    public private(set) var indexPathsForSelectedRows: [IndexPath] = []
    /// The first visible row (the scroll position).
    public var firstVisibleRow = IndexPath(row: 0, section: 0)

    /// An empty table with nothing selected.
    public override init() { super.init() }

    /// The first selected row, if any.
    public var indexPathForSelectedRow: IndexPath? { indexPathsForSelectedRows.first }

    /// Selects `indexPath` (replacing the selection unless multiple selection is allowed).
    public func selectRow(at indexPath: IndexPath) {
        if !allowsMultipleSelection { indexPathsForSelectedRows = [] }
        if !indexPathsForSelectedRows.contains(indexPath) { indexPathsForSelectedRows.append(indexPath) }
    }

    /// Deselects `indexPath`.
    public func deselectRow(at indexPath: IndexPath) {
        indexPathsForSelectedRows.removeAll { $0 == indexPath }
    }

    /// Saves the selection and first visible row as model identifiers; call `super` when overriding.
    open override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        guard let dataSource else { return }
        let selected = indexPathsForSelectedRows.compactMap { dataSource.modelIdentifier(forElementAt: $0, in: self) }
        if !selected.isEmpty { coder.encode(selected, forKey: Self.selectedIdentifiersKey) }
        if let identifier = dataSource.modelIdentifier(forElementAt: firstVisibleRow, in: self) {
            coder.encode(identifier, forKey: Self.firstVisibleIdentifierKey)
        }
    }

    /// Restores the selection and scroll position by identifier; items that are gone restore nothing.
    open override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        guard let dataSource else { return }
        if let identifiers = coder.decodeStrings(forKey: Self.selectedIdentifiersKey) {
            indexPathsForSelectedRows = []
            let restored = identifiers.compactMap { dataSource.indexPathForElement(withModelIdentifier: $0, in: self) }
            for indexPath in restored { selectRow(at: indexPath) }
        }
        if let identifier = coder.decodeString(forKey: Self.firstVisibleIdentifierKey),
            let indexPath = dataSource.indexPathForElement(withModelIdentifier: identifier, in: self)
        {
            firstVisibleRow = indexPath
        }
    }
}
