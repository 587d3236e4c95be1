/// What a restoration did: for every saved path, how its controller was found or why it was skipped.
public struct RestorationReport: Hashable, Sendable {
    /// Where a restored controller came from, in the order restoration asks.
    public enum Via: String, Sendable, CaseIterable {
        /// Its restoration class returned it.
        case restorationClass
        /// The app delegate's `viewControllerWithRestorationIdentifierPath` returned it.
        case appDelegate
        /// It already existed at that path (created at launch or by its restored parent).
        case existing
        /// A registered scene instantiated it.
        case storyboard
    }

    /// One controller that came back.
    public struct Restored: Hashable, Sendable {
        /// Its restoration path (built on each read from the restoration's shared path table).
        public var path: [String] {
            get { location.path }
            set { location = PathReference(path: newValue) }
        }
        var location: PathReference
        /// How it was found.
        public var via: Via
        /// False when its class differed from the saved one, so its state was not decoded.
        public var decoded: Bool
    }

    /// Why a saved path did not come back (a struct, so that a new reason breaks no user's `switch`).
    public struct SkipReason: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case restorationClassReturnedNil
            case restorationClassNotRegistered(String)
            case notFound
            case ancestorSkipped
            case notInWindow
            case emptyPath
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// Its restoration class returned nil (its subtree is skipped too).
        public static let restorationClassReturnedNil = SkipReason(.restorationClassReturnedNil)
        /// Its restoration class, named `name`, is not in the application's registry.
        public static func restorationClassNotRegistered(_ name: String) -> SkipReason { .init(.restorationClassNotRegistered(name)) }
        /// Nothing returned or had a controller for it.
        public static let notFound = SkipReason(.notFound)
        /// An ancestor was skipped.
        public static let ancestorSkipped = SkipReason(.ancestorSkipped)
        /// A controller was found for it but did not reach the window's hierarchy by the end of the launch.
        public static let notInWindow = SkipReason(.notInWindow)
        /// The record has no path (a hand-made archive); nothing can be looked up for it.
        public static let emptyPath = SkipReason(.emptyPath)

        /// Why, in words.
        public var description: String {
            switch value {
            case .restorationClassReturnedNil: "its restoration class returned nil"
            case .restorationClassNotRegistered(let name): "its restoration class \(name) is not registered"
            case .notFound: "no restoration class, app delegate, existing controller or storyboard had it"
            case .ancestorSkipped: "a controller above it was not restored"
            case .notInWindow: "it was found but never reached the window's hierarchy"
            case .emptyPath: "its record has an empty restoration path"
            }
        }
    }

    /// One saved path that did not come back.
    public struct Skipped: Hashable, Sendable {
        /// Its restoration path (built on each read from the restoration's shared path table).
        public var path: [String] {
            get { location.path }
            set { location = PathReference(path: newValue) }
        }
        var location: PathReference
        /// Why.
        public var reason: SkipReason
    }

    /// The restored controllers, parents first.
    public var restored: [Restored] = []
    /// The skipped paths, parents first.
    public var skipped: [Skipped] = []
    /// The paths of controllers presented again, parents first (each built on reading: for a chain of
    /// n presentations that is n²/2 identifiers).
    public var presented: [[String]] {
        get { presentedLocations.map(\.path) }
        set { presentedLocations = newValue.map(PathReference.init(path:)) }
    }
    var presentedLocations: [PathReference] = []
    /// The paths of restored objects that are not controllers or views, parents first.
    public var restoredObjects: [[String]] = []
    /// What went wrong without stopping restoration (a class mismatch, a presenter not in the window).
    public var notes: [String] = []

    /// How the controller at `path` was restored, or nil when it was not.
    public func via(_ path: [String]) -> Via? { restored.first { $0.location.equals(path) }?.via }
}
