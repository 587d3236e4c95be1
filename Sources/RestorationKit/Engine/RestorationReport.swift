/// What a restoration did: for every saved path, how its controller was found or why it was skipped.
public struct RestorationReport: Equatable, Sendable {
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
    public struct Restored: Equatable, Sendable {
        /// Its restoration path.
        public var path: [String]
        /// How it was found.
        public var via: Via
        /// False when its class differed from the saved one, so its state was not decoded.
        public var decoded: Bool
    }

    /// Why a saved path did not come back.
    public enum SkipReason: Equatable, Sendable {
        /// Its restoration class returned nil (its subtree is skipped too).
        case restorationClassReturnedNil
        /// Its restoration class is not in the application's registry.
        case restorationClassNotRegistered(String)
        /// Nothing returned or had a controller for it.
        case notFound
        /// An ancestor was skipped.
        case ancestorSkipped
    }

    /// One saved path that did not come back.
    public struct Skipped: Equatable, Sendable {
        /// Its restoration path.
        public var path: [String]
        /// Why.
        public var reason: SkipReason
    }

    /// The restored controllers, parents first.
    public var restored: [Restored] = []
    /// The skipped paths, parents first.
    public var skipped: [Skipped] = []
    /// The paths of controllers presented again, parents first.
    public var presented: [[String]] = []
    /// What went wrong without stopping restoration (a class mismatch, a presenter not in the window).
    public var notes: [String] = []

    /// How the controller at `path` was restored, or nil when it was not.
    public func via(_ path: [String]) -> Via? { restored.first { $0.path == path }?.via }
}
