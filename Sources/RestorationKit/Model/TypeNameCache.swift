/// Module-qualified type names, each computed once: `String(reflecting:)` on a type costs about as
/// much as preserving a whole controller, and a hierarchy has few classes.
struct TypeNameCache {
    /// The first few types, searched in order (cheaper than hashing for a handful).
    private var recent: [(type: ObjectIdentifier, name: String)] = []
    private var others: [ObjectIdentifier: String] = [:]

    /// The name the archive records for `type` (`String(reflecting:)`).
    mutating func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        for entry in recent where entry.type == key { return entry.name }
        if let name = others[key] { return name }
        let name = String(reflecting: type)
        if recent.count < 8 { recent.append((key, name)) } else { others[key] = name }
        return name
    }
}
