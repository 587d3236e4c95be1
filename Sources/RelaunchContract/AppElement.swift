/// Something an app's current screen accepts (App1's `Elements()`): what RelaunchTesting's
/// `TestedApp.elements()` returns and `relaunchctl app elements` prints.
public struct AppElement: Sendable, Hashable, Codable {
    /// What can be done with it.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Tap it (App1's `Tap(name)`).
        case tap
        /// Type into it (App1's `Type(name, text)`).
        case type
    }

    /// The element or field name, e.g. `check-in` or `note`.
    public var name: String
    /// Tap or type.
    public var kind: Kind
    /// One line for people.
    public var description: String

    /// An element named `name` of kind `kind`.
    public init(name: String, kind: Kind, description: String) {
        self.name = name
        self.kind = kind
        self.description = description
    }
}
