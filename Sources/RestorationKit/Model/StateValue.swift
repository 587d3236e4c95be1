/// One value a view controller saves in its restorable state.
///
/// Restorable state is user-interface state (identifiers, a selection, text being typed), never the
/// data model; the kinds here are enough for that and keep the archive format small and stable.
public enum StateValue: Equatable, Sendable {
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case strings([String])
    case bytes([UInt8])

    /// The tag that stands for this kind in the archive.
    var tag: UInt8 {
        switch self {
        case .int: 1
        case .double: 2
        case .bool: 3
        case .string: 4
        case .strings: 5
        case .bytes: 6
        }
    }
}
