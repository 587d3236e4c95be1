/// A place to check in at: the app's data model (kept outside restorable state, which saves only its id).
package struct Venue: Sendable, Equatable, Identifiable {
    /// A stable identifier, used in `tap venue:ID` and saved by the venue list's model association.
    package var id: String
    /// The name shown in the list.
    package var name: String

    /// A venue with the given id and name.
    package init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The venues the demo ships with.
    package static let catalog: [Venue] = [
        Venue(id: "blue-bottle", name: "Blue Bottle Coffee"),
        Venue(id: "ferry-building", name: "Ferry Building"),
        Venue(id: "tartine", name: "Tartine Bakery"),
        Venue(id: "dolores-park", name: "Dolores Park"),
        Venue(id: "city-lights", name: "City Lights Books"),
    ]
}
