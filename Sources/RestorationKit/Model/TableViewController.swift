/// A controller whose view is a table (`UITableViewController`).
///
/// The table view, not the controller, saves the selection and scroll position (give it a
/// restoration identifier and a data source that adopts `DataSourceModelAssociation`); by default
/// the data source is the controller itself when it adopts the protocol.
open class TableViewController: ViewController {
    /// The table.
    public let tableView = TableView()

    /// A controller showing an empty table.
    public override init() {
        super.init()
        view = tableView
        tableView.dataSource = self as? any DataSourceModelAssociation
    }

    /// The selected row of section 0 (a shorthand for single-section tables).
    public var selectedRow: Int? {
        get { tableView.indexPathForSelectedRow?.row }
        set {
            for selected in tableView.indexPathsForSelectedRows { tableView.deselectRow(at: selected) }
            if let newValue { tableView.selectRow(at: IndexPath(row: newValue, section: 0)) }
        }
    }

    /// The first visible row of section 0.
    public var firstVisibleRow: Int {
        get { tableView.firstVisibleRow.row }
        set { tableView.firstVisibleRow = IndexPath(row: newValue, section: 0) }
    }
}
