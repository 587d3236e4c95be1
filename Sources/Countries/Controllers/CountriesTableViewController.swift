internal import RestorationKit

/// The countries table: its table view saves the selection and the first visible row by capital,
/// through this controller's model association (the table view's data source, as in UIKit).
final class CountriesTableViewController: TableViewController, DataSourceModelAssociation {
    /// How many rows the screen shows at once; a scroll moves by as many.
    static let visibleRows = 10
    /// A row's height in points: the content offset is the first visible row times this.
    static let rowHeight = 44.0

    let countries: [Country]

    init(countries: [Country]) {
        self.countries = countries
        super.init()
        title = "Countries"
        tableView.restorationIdentifier = RestorationID.countriesTable
    }

    /// The selected country.
    var selectedCountry: Country? { selectedRow.flatMap { countries.indices.contains($0) ? countries[$0] : nil } }

    /// The row of the country whose capital is `capital`, if it is in the data.
    func row(ofCapital capital: String) -> Int? { countries.firstIndex { $0.capital == capital } }

    /// The rows on screen.
    var visibleCountries: ArraySlice<Country> {
        countries[min(firstVisibleRow, countries.count)..<min(firstVisibleRow + Self.visibleRows, countries.count)]
    }

    /// The largest first visible row: the last screenful.
    var lastScrollableRow: Int { max(0, countries.count - Self.visibleRows) }

    /// Scrolls by `pages` screenfuls (negative: up), within the table.
    func scroll(pages: Int) {
        scroll(toRow: firstVisibleRow + pages * Self.visibleRows)
    }

    /// Makes `row` (clamped to the table) the first visible one; the content offset follows.
    func scroll(toRow row: Int) {
        firstVisibleRow = min(max(0, row), lastScrollableRow)
        tableView.contentOffset = (0, Double(firstVisibleRow) * Self.rowHeight)
    }

    /// The seed's `[self.tableView reloadData]` after restoration: the first visible row came back by
    /// capital (wherever that country is now, or row 0 when it is gone), so the content offset is laid
    /// out again from it rather than taken from the archive, where rows may have moved.
    override func applicationFinishedRestoringState() {
        super.applicationFinishedRestoringState()
        scroll(toRow: firstVisibleRow)
    }

    // MARK: DataSourceModelAssociation

    func modelIdentifier(forElementAt indexPath: IndexPath, in view: View) -> String? {
        indexPath.section == 0 && countries.indices.contains(indexPath.row) ? countries[indexPath.row].capital : nil
    }

    /// nil when the capital's country was deleted from the data: its selection and scroll position restore nothing.
    func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
        row(ofCapital: identifier).map { IndexPath(row: $0, section: 0) }
    }
}
