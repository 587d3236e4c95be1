internal import Synchronization

/// Module-qualified type names, each computed once per process, as `String(reflecting:)` writes them
/// (the text archives record). Computed with `_typeName(_:qualified:)`, which is that text without
/// `String(reflecting:)`'s dynamic casts: in a fresh process each of those scans every protocol
/// conformance of the binary, and the classes an app registers at launch made that about a
/// millisecond of every relaunch.
///
/// A preservation or restoration keeps its own cache (no lock per controller) in front of the
/// process-wide one.
struct TypeNameCache {
    /// The first few types, searched in order (cheaper than hashing for a handful).
    private var recent: [(type: ObjectIdentifier, name: String)] = []
    private var others: [ObjectIdentifier: String] = [:]

    /// Every name computed so far in this process.
    private static let known = Mutex<[ObjectIdentifier: String]>([:])

    /// The name the archive records for `type`, from the process-wide cache (one lock).
    static func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = known.withLock({ $0[key] }) { return name }
        let name = _typeName(type, qualified: true)
        known.withLock { $0[key] = name }
        return name
    }

    /// The name the archive records for `type` (the text of `String(reflecting:)`).
    mutating func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        for entry in recent where entry.type == key { return entry.name }
        if let name = others[key] { return name }
        let name = Self.name(of: type)
        if recent.count < 8 { recent.append((key, name)) } else { others[key] = name }
        return name
    }
}
