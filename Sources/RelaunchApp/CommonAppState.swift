public import RelaunchContract
internal import FoundationEssentials
internal import RestorationKit

/// The keys every app's state JSON has (CONTRACT.md): `launch`, `lifecycle`, `paths`, `presented`,
/// `restoredVia`, `lastExit` and `permissions`; a scene-based app's `launch` also has `scenes`, an
/// array of `{"session", "outcome", "reason", "activityType", "title"}`. An app's state encodes these, then its own keys,
/// into one container keyed by `StateKey`; absent values encode as `null`, never as missing keys.
public struct CommonAppState: Equatable, Sendable {
    /// `launch.outcome`: `fresh`, `restored` or `discarded`.
    public var launchOutcome: String
    /// `launch.reason`: why saved state was discarded, or nil.
    public var launchReason: String?
    /// `launch.scenes`: how each scene session came back, written only for a scene-based app (one
    /// that had sessions at launch), so that other apps' `launch` stays as it was.
    public var launchScenes: [LaunchReport.SceneRestoration]
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
        launchScenes = session.launchReport?.scenes ?? []
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
        if !launchScenes.isEmpty {
            var scenes = launch.nestedUnkeyedContainer(forKey: "scenes")
            for scene in launchScenes {
                var entry = scenes.nestedContainer(keyedBy: StateKey.self)
                try entry.encode(scene.session, forKey: "session")
                try entry.encode(scene.outcome.rawValue, forKey: "outcome")
                try entry.encode(scene.discardReason?.rawValue, forKey: "reason")
                try entry.encode(scene.activityType, forKey: "activityType")
                try entry.encode(scene.title, forKey: "title")
            }
        }
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

extension CommonAppState {
    /// `state` as one line of JSON with sorted keys and unescaped slashes, as `State()` returns it;
    /// `{}` if it cannot be encoded (a state of strings, numbers, booleans and nulls always can).
    public static func json(_ state: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
