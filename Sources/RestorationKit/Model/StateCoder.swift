/// The keyed container a controller encodes its restorable state into and decodes it from (NSCoder's role).
///
/// During restoration the coder also carries the application, so that a restoration class can reach
/// the window (the seed's `TabViewController` must make itself the root while it is restored).
public struct StateCoder {
    /// The build that wrote the archive (a string), in the application-level coder (UIKit's key).
    public static let bundleVersionKey = "UIApplicationStateRestorationBundleVersionKey"
    /// The system version the archive was written on (a string), in the application-level coder.
    public static let systemVersionKey = "UIApplicationStateRestorationSystemVersionKey"
    /// When the archive was written (a double, seconds since the Unix epoch), in the application-level coder.
    public static let timestampKey = "UIApplicationStateRestorationTimestampKey"
    /// The interface idiom in effect when the archive was written (an integer,
    /// `UserInterfaceIdiom.rawValue`), in the application-level coder.
    public static let userInterfaceIdiomKey = "UIApplicationStateRestorationUserInterfaceIdiomKey"

    /// The name of the storyboard a controller came from (a string), in that controller's coder
    /// (UIKit's key); `storyboard` finds it in the application's registry.
    public static let storyboardKey = "UIStateRestorationViewControllerStoryboardKey"
    /// The controller's storyboard id (a string), next to `storyboardKey`, for restoration's last step.
    public static let storyboardIdentifierKey = "RelaunchStoryboardIdentifier"

    /// The storyboard the controller being restored came from, when the application registered it.
    public var storyboard: Storyboard? {
        decodeString(forKey: Self.storyboardKey).flatMap { application?.registry.storyboard(named: $0) }
    }

    /// Everything encoded so far, by key.
    public var values: [String: StateValue] { storage.dictionary }
    /// The same, sorted by key.
    private(set) var storage: StateValues
    /// The application being restored; nil while preserving or when the coder stands alone.
    public private(set) weak var application: Application?
    /// The controllers encoded by reference, in order (preservation walks them as children).
    var encodedControllers: [ViewController] = []
    /// The restored children of the controller being decoded, by restoration identifier.
    var restoredChildren: RestoredChildren?

    /// A coder holding `values`, optionally tied to the application being restored.
    public init(values: [String: StateValue] = [:], application: Application? = nil) {
        self.init(storage: StateValues(values), application: application)
    }

    /// A coder holding `storage`.
    init(storage: StateValues, application: Application? = nil) {
        self.storage = storage
        self.application = application
    }

    /// An empty coder with room for `capacity` values.
    init(capacity: Int) {
        storage = StateValues(capacity: capacity)
    }

    /// Stores `value` under `key`, replacing what was there.
    public mutating func encode(_ value: StateValue, forKey key: String) { storage[key] = value }
    /// Stores a string under `key`.
    public mutating func encode(_ value: String, forKey key: String) { storage[key] = .string(value) }
    /// Stores an integer under `key`.
    public mutating func encode(_ value: Int, forKey key: String) { storage[key] = .int(Int64(value)) }
    /// Stores a Boolean under `key`.
    public mutating func encode(_ value: Bool, forKey key: String) { storage[key] = .bool(value) }
    /// Stores a floating-point number under `key`.
    public mutating func encode(_ value: Double, forKey key: String) { storage[key] = .double(value) }
    /// Stores a list of strings under `key`.
    public mutating func encode(_ value: [String], forKey key: String) { storage[key] = .strings(value) }

    /// Stores a reference to `controller` under `key`: a custom container encodes its children this way,
    /// and preservation then preserves them under the container's path (UIKit preserves a custom
    /// container's children only when it encodes them). A controller without a restoration identifier
    /// is not stored.
    public mutating func encode(_ controller: ViewController, forKey key: String) {
        encode([controller], forKey: key)
    }

    /// Stores references to `controllers` (those with restoration identifiers), in order, under `key`.
    public mutating func encode(_ controllers: [ViewController], forKey key: String) {
        var identifiers: [String] = []
        identifiers.reserveCapacity(controllers.count)
        for controller in controllers {
            if let identifier = controller.restorationIdentifier { identifiers.append(identifier) }
        }
        storage[key] = .strings(identifiers)
        if identifiers.count == controllers.count, encodedControllers.isEmpty {
            encodedControllers = controllers  // shares the array
        } else {
            encodedControllers += controllers.filter { $0.restorationIdentifier != nil }
        }
    }

    /// The restored controller referenced under `key`, or nil when it was not restored (or none was stored).
    public func decodeViewController(forKey key: String) -> ViewController? {
        decodeViewControllers(forKey: key).first
    }

    /// The restored controllers referenced under `key`, in order; those not restored are left out.
    public func decodeViewControllers(forKey key: String) -> [ViewController] {
        guard let restoredChildren, let identifiers = decodeStrings(forKey: key) else { return [] }
        var controllers: [ViewController] = []
        controllers.reserveCapacity(identifiers.count)  // allocated once, not grown from empty
        for identifier in identifiers {
            if let controller = restoredChildren[identifier] { controllers.append(controller) }
        }
        return controllers
    }

    /// Whether anything was stored under `key`.
    public func contains(_ key: String) -> Bool { storage[key] != nil }

    /// The string under `key`, or nil when absent or of another kind.
    public func decodeString(forKey key: String) -> String? {
        guard case .string(let value)? = storage[key] else { return nil }
        return value
    }

    /// The integer under `key`, or nil when absent, of another kind or out of `Int`'s range.
    public func decodeInt(forKey key: String) -> Int? {
        guard case .int(let value)? = storage[key] else { return nil }
        return Int(exactly: value)
    }

    /// The Boolean under `key`, or nil when absent or of another kind.
    public func decodeBool(forKey key: String) -> Bool? {
        guard case .bool(let value)? = storage[key] else { return nil }
        return value
    }

    /// The floating-point number under `key`, or nil when absent or of another kind.
    public func decodeDouble(forKey key: String) -> Double? {
        guard case .double(let value)? = storage[key] else { return nil }
        return value
    }

    /// The list of strings under `key`, or nil when absent or of another kind.
    public func decodeStrings(forKey key: String) -> [String]? {
        guard case .strings(let value)? = storage[key] else { return nil }
        return value
    }
}

/// One value a view controller saves in its restorable state.
///
/// Restorable state is user-interface state (identifiers, a selection, text being typed), never the
/// data model; the kinds here are enough for that and keep the archive format small and stable.
public enum StateValue: Equatable, Sendable {
    /// A signed integer.
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// A string (an identifier, text being typed).
    case string(String)
    /// A list of strings.
    case strings([String])
    /// Raw bytes.
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

/// The restored controllers a record names as its children or pushed controllers, looked up by
/// identifier only if its decode asks (a tab bar's never does).
///
/// A custom container usually asks for its children in the order it encoded them, which is the
/// order the record names them: when the identifiers are distinct, the pair after the last one
/// found is tried first, with one comparison. A hash table is made only when a lookup misses it.
final class RestoredChildren {
    private var pairs: [(identifier: String, controller: ViewController?)]
    private var table: [String: ViewController]?
    /// Whether no two pairs have the same identifier (so the one found in order is the only one).
    private let distinct: Bool
    /// The pair tried first by the next lookup.
    private var next = 0

    /// - Parameter distinct: Whether the identifiers are known to be distinct; when not, every lookup
    ///   goes through the table (where a later pair of the same identifier wins). The restorer
    ///   passes whether the children's path nodes are distinct, as it does for re-linking tabs: the
    ///   same thing unless a hand-made archive repeats a (parent, identifier) node, and then its two
    ///   same-named children, restored as two controllers, are handed over in order.
    init(_ pairs: [(identifier: String, controller: ViewController?)], distinct: Bool) {
        self.pairs = pairs
        self.distinct = distinct
    }

    subscript(identifier: String) -> ViewController? {
        // Once the table is made, pairs is empty: the in-order check cannot match then.
        if distinct, next < pairs.count, pairs[next].identifier == identifier {
            next += 1
            return pairs[next - 1].controller
        }
        if table == nil {
            var made: [String: ViewController] = Dictionary(minimumCapacity: pairs.count)
            // A later relationship of the same identifier wins, as it would assigning one by one.
            for (identifier, controller) in pairs { made[identifier] = controller }
            table = made
            pairs = []
        }
        return table?[identifier]
    }
}
