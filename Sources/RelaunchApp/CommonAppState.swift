public import RelaunchContract
internal import RestorationKit

/// The keys every app's state JSON has (CONTRACT.md): `launch`, `lifecycle`, `paths`, `presented`,
/// `restoredVia`, `lastExit` and `permissions`. An app's state encodes these, then its own keys,
/// into one container keyed by `StateKey`; absent values encode as `null`, never as missing keys.
public struct CommonAppState: Equatable, Sendable {
    /// `launch.outcome`: `fresh`, `restored` or `discarded`.
    public var launchOutcome: String
    /// `launch.reason`: why saved state was discarded, or nil.
    public var launchReason: String?
    /// `launching`, `active` or `background`.
    public var lifecycle: String
    /// Every restoration path in the hierarchy, parents first.
    public var paths: [String]
    /// The presented controller's path, or nil.
    public var presented: String?
    /// How each path was restored at the last launch.
    public var restoredVia: [String: String]
    /// How the last instance ended, when it was killed for a permission change.
    public var lastExit: LastExit?
    /// Each permission the app uses, as it last learned it.
    public var permissions: [Permission: PermissionState]

    /// The common state of an app launched by `session`.
    public init(
        session: RestorationSession, lastExit: LastExit?, permissions: [Permission: PermissionState]
    ) {
        (launchOutcome, launchReason) = session.launchOutcome
        lifecycle = session.application.state.rawValue
        paths = session.paths
        presented = session.presentedPath
        restoredVia = session.restoredVia
        self.lastExit = lastExit
        self.permissions = permissions
    }

    /// Encodes the common keys into `container`.
    public func encode(into container: inout KeyedEncodingContainer<StateKey>) throws {
        var launch = container.nestedContainer(keyedBy: StateKey.self, forKey: "launch")
        try launch.encode(launchOutcome, forKey: "outcome")
        try launch.encode(launchReason, forKey: "reason")
        try container.encode(lifecycle, forKey: "lifecycle")
        try container.encode(paths, forKey: "paths")
        try container.encode(presented, forKey: "presented")
        try container.encode(restoredVia, forKey: "restoredVia")
        if let lastExit {
            var exit = container.nestedContainer(keyedBy: StateKey.self, forKey: "lastExit")
            try exit.encode(lastExit.permission.rawValue, forKey: "permission")
            try exit.encode(lastExit.old.rawValue, forKey: "old")
            try exit.encode(lastExit.new.rawValue, forKey: "new")
        } else {
            try container.encodeNil(forKey: "lastExit")
        }
        let states = Dictionary(uniqueKeysWithValues: permissions.map { ($0.key.rawValue, $0.value.rawValue) })
        try container.encode(states, forKey: "permissions")
    }
}

/// A key of a state JSON object, written as a string literal.
public struct StateKey: CodingKey, ExpressibleByStringLiteral, Sendable {
    /// The key.
    public var stringValue: String
    /// Always nil: state keys are names.
    public var intValue: Int? { nil }

    /// The key `stringValue`.
    public init(stringValue: String) { self.stringValue = stringValue }
    /// No key: state keys are names.
    public init?(intValue: Int) { nil }
    /// The key `value`.
    public init(stringLiteral value: String) { stringValue = value }
}
