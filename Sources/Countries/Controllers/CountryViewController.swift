internal import RestorationKit

/// The seed's `UYLCountryViewController`: shows a country's capital, pushed when a row is selected.
///
/// It encodes its capital, as the seed does; its restoration class brings it back from the storyboard
/// the coder names, or returns nil (it is not restored) when that capital's country is no longer in
/// the data: there is nothing left to show.
final class CountryViewController: ViewController, ViewControllerRestoration {
    /// The seed's `UYLKeyCapital`.
    static let capitalKey = "capital"

    /// The capital shown (the seed's `capital` property), set before the push.
    var capital = ""

    override init() {
        super.init()
        restorationClass = CountryViewController.self
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        coder.encode(capital, forKey: Self.capitalKey)
        super.encodeRestorableState(with: &coder)
    }

    override func decodeRestorableState(with coder: StateCoder) {
        capital = coder.decodeString(forKey: Self.capitalKey) ?? ""
        super.decodeRestorableState(with: coder)
    }

    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        let countries = CountriesAppDelegate.current(coder)?.countries ?? Country.catalog
        guard let capital = coder.decodeString(forKey: capitalKey), countries.contains(where: { $0.capital == capital }),
              let storyboard = coder.storyboard
        else { return nil }
        return storyboard.instantiateViewController(withIdentifier: RestorationID.country)
    }
}
