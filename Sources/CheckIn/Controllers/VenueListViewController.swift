internal import RestorationKit

/// The venue list: a table whose selection and scroll position are saved by venue id.
final class VenueListViewController: TableViewController, DataSourceModelAssociation {
    let venues: [Venue]

    init(venues: [Venue]) {
        self.venues = venues
        super.init()
        restorationIdentifier = RestorationID.venueList
        title = "Venues"
    }

    /// The selected venue.
    var selectedVenue: Venue? { selectedRow.flatMap { venues.indices.contains($0) ? venues[$0] : nil } }

    func modelIdentifier(forElementAt index: Int) -> String? { venues.indices.contains(index) ? venues[index].id : nil }

    func indexOfElement(withModelIdentifier identifier: String) -> Int? { venues.firstIndex { $0.id == identifier } }
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
