internal import RestorationKit

/// The currency list, presented in `CurrenciesNC` to pick one of the two currencies. Its table view
/// saves the selection and the scroll position by currency code, through this controller's model
/// association; the controller saves which side it picks for and comes back by its restoration class.
final class CurrenciesViewController: TableViewController, DataSourceModelAssociation, ViewControllerRestoration {
    private static let sideKey = "side"
    /// How many rows the list shows at once.
    static let visibleRows = 9
    /// A row's height in points (the scroll offset is in points).
    static let rowHeight = 44.0

    let currencies: [Currency]
    /// The side it picks for.
    private(set) var side: CurrencyPair.Side

    init(currencies: [Currency], side: CurrencyPair.Side) {
        self.currencies = currencies
        self.side = side
        super.init()
        restorationIdentifier = RestorationID.currencies
        restorationClass = CurrenciesViewController.self
        tableView.restorationIdentifier = RestorationID.currencyTable
        title = "Currencies"
    }

    /// The selected currency.
    var selectedCurrency: Currency? { selectedRow.flatMap { currencies.indices.contains($0) ? currencies[$0] : nil } }

    /// The first currency in view.
    var firstVisibleCurrency: Currency? { currencies.indices.contains(firstVisibleRow) ? currencies[firstVisibleRow] : nil }

    /// The currencies in view, with their rows.
    var visibleCurrencies: ArraySlice<Currency> {
        currencies[min(firstVisibleRow, currencies.count)..<min(firstVisibleRow + Self.visibleRows, currencies.count)]
    }

    /// The largest first visible row.
    var lastFirstRow: Int { max(0, currencies.count - Self.visibleRows) }

    /// The row of the currency `code`, if the list has it.
    func row(of code: String) -> Int? { currencies.firstIndex { $0.id == code } }

    /// Selects `code` (the list does not scroll: it opens at the top, as a table does).
    func select(_ code: String) {
        if let row = row(of: code) { selectedRow = row }
    }

    /// Scrolls by `rows` (negative: up), within the list.
    func scroll(by rows: Int) { scroll(toRow: firstVisibleRow + rows) }

    /// Puts `row` first in view (or as near as the list's end allows); the offset follows.
    private func scroll(toRow row: Int) {
        firstVisibleRow = min(max(0, row), lastFirstRow)
        tableView.contentOffset = (0, Double(firstVisibleRow) * Self.rowHeight)
    }

    /// The table restored its first row by code: the list may have changed, so the offset follows the row.
    override func applicationFinishedRestoringState() {
        super.applicationFinishedRestoringState()
        scroll(toRow: firstVisibleRow)
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(side.rawValue, forKey: Self.sideKey)
    }

    override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        side = coder.decodeString(forKey: Self.sideKey).flatMap(CurrencyPair.Side.init(rawValue:)) ?? side
    }

    // MARK: DataSourceModelAssociation

    func modelIdentifier(forElementAt indexPath: IndexPath, in view: View) -> String? {
        indexPath.section == 0 && currencies.indices.contains(indexPath.row) ? currencies[indexPath.row].id : nil
    }

    func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
        row(of: identifier).map { IndexPath(row: $0, section: 0) }
    }

    // MARK: ViewControllerRestoration

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        CurrenciesViewController(currencies: BancaAppDelegate.current(coder)?.currencies ?? Currency.catalog, side: .from)
    }
}
