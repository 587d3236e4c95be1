/// An app's state as it answers `State()`: the keys every Relaunch app has, typed, and the app's own
/// keys through ``subscript(_:)`` and ``value(at:)``.
public struct AppState: Sendable, Hashable {
    /// How the running instance launched.
    public var launch: Launch
    /// `launching`, `active` or `background`.
    public var lifecycle: Lifecycle
    /// Every restoration path in the hierarchy, parents first (`TabViewController/CheckInViewController`).
    public var paths: [String]
    /// The presented controller's path, or nil.
    public var presented: String?
    /// How each path was restored at this launch (empty after a fresh launch).
    public var restoredVia: [String: RestoredVia]
    /// The permission change that killed the previous instance, if one did.
    public var lastExit: LastExit?
    /// Each permission the app uses, as the app last learned it.
    public var permissions: [Permission: PermissionState]
    /// The whole state, the app's own keys included.
    public var json: JSONValue

    /// The top-level key `key` (`modal`, `selectedTab`, …), or nil.
    public subscript(key: String) -> JSONValue? { json[key] }

    /// The value at a dot-separated path (`modal.venue`), or nil.
    public func value(at path: String) -> JSONValue? { json.value(at: path) }

    /// How an instance launched.
    public struct Launch: Sendable, Hashable {
        /// Whether it restored saved state.
        public var outcome: LaunchOutcome
        /// Why saved state was discarded, when it was.
        public var discardReason: DiscardReason?
    }

    /// Whether a launch restored saved state.
    public enum LaunchOutcome: String, Sendable, Hashable, CaseIterable {
        /// There was nothing to restore.
        case fresh
        /// Saved state came back.
        case restored
        /// Saved state was there and was thrown away (see ``DiscardReason``).
        case discarded
    }

    /// Why saved state was discarded (the journal's `REASON`).
    public struct DiscardReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The reason as the journal writes it, e.g. `force-quit`.
        public var rawValue: String
        /// A reason as the journal writes it.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The app was built anew since the state was saved.
        public static let buildMismatch = DiscardReason(rawValue: "build-mismatch")
        /// The previous launch died while restoring.
        public static let crashedDuringRestore = DiscardReason(rawValue: "crashed-during-restore")
        /// The user force-quit the app.
        public static let forceQuit = DiscardReason(rawValue: "force-quit")
        /// The archive was damaged.
        public static let corrupt = DiscardReason(rawValue: "corrupt")
        /// The archive is of a format this build cannot read.
        public static let unsupportedFormat = DiscardReason(rawValue: "unsupported-format")
        /// The archive was larger than the app accepts.
        public static let tooLarge = DiscardReason(rawValue: "too-large")
        /// The reason's name.
        public var description: String { rawValue }
    }

    /// Where an app is in its lifecycle.
    public enum Lifecycle: String, Sendable, Hashable {
        /// Restoring; not yet active.
        case launching
        /// In the foreground.
        case active
        /// In the background (its state preserved).
        case background

        /// What a standby process of the app reports with permissiond's `Lifecycle(app, _)`: it is
        /// there. No lifecycle of the app, and it changes none (docs/DESIGN.md, "The standby").
        package static let standbyReport = "standby"
    }

    /// How a controller came back, as UIKit asks for it.
    public struct RestoredVia: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The way as the state JSON writes it.
        public var rawValue: String
        /// A way as the state JSON writes it.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Its restoration class made it.
        public static let restorationClass = RestoredVia(rawValue: "restorationClass")
        /// The app delegate's `viewController(withRestorationIdentifierPath:coder:)` made it.
        public static let appDelegate = RestoredVia(rawValue: "appDelegate")
        /// It existed already (made at launch) and was found by its path.
        public static let existing = RestoredVia(rawValue: "existing")
        /// A storyboard made it.
        public static let storyboard = RestoredVia(rawValue: "storyboard")
        /// The way's name.
        public var description: String { rawValue }
    }

    /// The permission change that killed the previous instance.
    public struct LastExit: Sendable, Hashable {
        /// The permission that changed.
        public var permission: Permission
        /// Its state before.
        public var old: PermissionState
        /// Its state after.
        public var new: PermissionState
    }
}

extension AppState {
    /// Reads `State()`'s JSON, decoded (RelaunchDriver reads it from the text).
    /// - Throws: ``RelaunchTestingError/Code/unexpectedReply`` naming the key that is missing or wrong.
    package init(json: JSONValue, app: String) throws(RelaunchTestingError) {
        func fail(_ key: String) -> RelaunchTestingError {
            RelaunchTestingError(.unexpectedReply, "\(app)'s state has no readable \"\(key)\" (got \(json[key]?.description ?? "nothing"))")
        }
        guard let outcome = json.value(at: "launch.outcome")?.string.flatMap(LaunchOutcome.init(rawValue:)) else {
            throw fail("launch")
        }
        guard let lifecycle = json["lifecycle"]?.string.flatMap(Lifecycle.init(rawValue:)) else { throw fail("lifecycle") }
        guard case .array(let pathValues)? = json["paths"] else { throw fail("paths") }
        guard case .object(let via)? = json["restoredVia"] else { throw fail("restoredVia") }
        guard case .object(let permissionValues)? = json["permissions"] else { throw fail("permissions") }
        var permissions: [Permission: PermissionState] = [:]
        for (name, value) in permissionValues {
            guard let permission = Permission(rawValue: name),
                  let state = value.string.flatMap(PermissionState.init(rawValue:))
            else { throw fail("permissions") }
            permissions[permission] = state
        }
        var lastExit: LastExit?
        if let exit = json["lastExit"], !exit.isNull {
            guard let permission = exit["permission"]?.string.flatMap(Permission.init(rawValue:)),
                  let old = exit["old"]?.string.flatMap(PermissionState.init(rawValue:)),
                  let new = exit["new"]?.string.flatMap(PermissionState.init(rawValue:))
            else { throw fail("lastExit") }
            lastExit = LastExit(permission: permission, old: old, new: new)
        }
        self.init(
            launch: Launch(outcome: outcome, discardReason: json.value(at: "launch.reason")?.string.map(DiscardReason.init(rawValue:))),
            lifecycle: lifecycle,
            paths: pathValues.compactMap(\.string),
            presented: json["presented"]?.string,
            restoredVia: via.compactMapValues { $0.string.map(RestoredVia.init(rawValue:)) },
            lastExit: lastExit, permissions: permissions, json: json)
    }
}
