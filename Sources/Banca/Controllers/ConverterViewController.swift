internal import RestorationKit

/// The converter: the amount typed and the two currencies. `MainNC`'s root, made at launch, so
/// restoration finds it as an existing controller (it has no restoration class); it saves the amount
/// as typed, and presents About and the currency list, each in its own navigation controller.
final class ConverterViewController: ViewController {
    private static let amountKey = "amount"

    /// The amount as typed.
    var amount = Amount("")!

    override init() {
        super.init()
        restorationIdentifier = RestorationID.converter
        title = "Banca"
    }

    /// The navigation controller it is the root of.
    var mainNavigation: NavigationController? { parent as? NavigationController }

    /// The modal navigation controller it presents, if any.
    var presentedNavigation: NavigationController? { presentedViewController as? NavigationController }

    /// Presents About in `AboutNC`, as the seed's code does.
    func presentAbout() {
        let navigation = NavigationController(rootViewController: AboutViewController())
        navigation.restorationIdentifier = RestorationID.aboutNavigation
        present(navigation, animated: true)
    }

    /// Presents the currency list for `side` in `CurrenciesNC`, at its top, `selected` selected.
    func presentCurrencies(for side: CurrencyPair.Side, currencies: [Currency], selected: String) {
        let list = CurrenciesViewController(currencies: currencies, side: side)
        list.select(selected)
        let navigation = NavigationController(rootViewController: list)
        navigation.restorationIdentifier = RestorationID.currenciesNavigation
        present(navigation, animated: true)
    }

    /// Pushes the camera screen on `MainNC`.
    func pushScan() {
        mainNavigation?.pushViewController(ScanViewController())
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(amount.text, forKey: Self.amountKey)
    }

    override func decodeRestorableState(with coder: StateCoder) {
        super.decodeRestorableState(with: coder)
        amount = coder.decodeString(forKey: Self.amountKey).flatMap(Amount.init) ?? amount
    }
}
