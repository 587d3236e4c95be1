internal import RestorationKit

/// The venue list: its table view saves the selection and scroll position by venue id, through this
/// controller's model association (the table view's data source, as in UIKit).
final class VenueListViewController: TableViewController, DataSourceModelAssociation {
    let venues: [Venue]

    init(venues: [Venue]) {
        self.venues = venues
        super.init()
        restorationIdentifier = RestorationID.venueList
        tableView.restorationIdentifier = RestorationID.venueTable
        title = "Venues"
    }

    /// The selected venue.
    var selectedVenue: Venue? { selectedRow.flatMap { venues.indices.contains($0) ? venues[$0] : nil } }

    /// The row of the venue `id`, if it is in the list.
    func row(ofVenue id: String) -> Int? { venues.firstIndex { $0.id == id } }

    func modelIdentifier(forElementAt indexPath: IndexPath, in view: View) -> String? {
        indexPath.section == 0 && venues.indices.contains(indexPath.row) ? venues[indexPath.row].id : nil
    }

    func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
        row(ofVenue: identifier).map { IndexPath(row: $0, section: 0) }
    }
}

/// One venue, pushed from the list; restored by its restoration class while the venue still exists.
final class VenueDetailViewController: ViewController, ViewControllerRestoration {
    private static let venueKey = "venueID"
    let venue: Venue

    init(venue: Venue) {
        self.venue = venue
        super.init()
        restorationIdentifier = RestorationID.venueDetail
        restorationClass = VenueDetailViewController.self
        title = venue.name
    }

    override func encodeRestorableState(with coder: inout StateCoder) {
        super.encodeRestorableState(with: &coder)
        coder.encode(venue.id, forKey: Self.venueKey)
    }

    /// A detail for the saved venue, or nil (not restored) when that venue no longer exists.
    static func viewController(withRestorationIdentifierPath identifierComponents: [String], coder: StateCoder) -> ViewController? {
        let venues = CheckInAppDelegate.current(coder)?.venues ?? Venue.catalog
        guard let id = coder.decodeString(forKey: venueKey), let venue = venues.first(where: { $0.id == id }) else { return nil }
        return VenueDetailViewController(venue: venue)
    }
}
