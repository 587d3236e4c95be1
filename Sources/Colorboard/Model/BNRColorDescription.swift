/// A color the user keeps (the seed's `BNRColorDescription`): part of the app's data model, so it
/// lives in `ColorStore` and is saved apart from the restoration archive, which saves only its id.
package final class BNRColorDescription {
    /// The longest name accepted.
    package static let maximumNameLength = 40

    /// A stable identifier (`c1`, `c2`, ...), used in `tap color:ID` and saved by the editor.
    package let id: String
    /// The name shown in the list.
    package var name: String
    /// The red component, 0 to 1.
    package var red: Double
    /// The green component, 0 to 1.
    package var green: Double
    /// The blue component, 0 to 1.
    package var blue: Double

    /// A color; by default the seed's: blue, named "Blue".
    package init(id: String, name: String = "Blue", red: Double = 0, green: Double = 0, blue: Double = 1) {
        self.id = id
        self.name = name
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#RRGGBB`.
    package var hex: String { Self.hex(red, green, blue) }

    /// `#RRGGBB` for components from 0 to 1.
    static func hex(_ red: Double, _ green: Double, _ blue: Double) -> String {
        let digits = Array("0123456789ABCDEF")
        return "#" + [red, green, blue].map { component in
            let byte = Int((min(max(component, 0), 1) * 255).rounded())
            return String([digits[byte / 16], digits[byte % 16]])
        }.joined()
    }
}
