/// Module-qualified type names, each computed once: `String(reflecting:)` on a type costs about as
/// much as preserving a whole controller, and a hierarchy has few classes.
struct TypeNameCache {
    private var names: [ObjectIdentifier: String] = [:]

    /// The name the archive records for `type` (`String(reflecting:)`).
    mutating func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = names[key] { return name }
        let name = String(reflecting: type)
        names[key] = name
        return name
    }
}
