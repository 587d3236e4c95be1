/// Everything one preservation saved: a header, the application's own state and one record per controller.
///
/// A plain value; `ArchiveCodec` turns it into bytes and back.
public struct RestorationArchive: Equatable, Sendable {
    /// Who wrote the archive and when.
    public var header: ArchiveHeader
    /// What the app delegate encoded (the engine adds `StateCoder.buildVersionKey`).
    public var applicationState: [String: StateValue] {
        get { applicationValues.dictionary }
        set { applicationValues = StateValues(newValue) }
    }
    /// The same, sorted by key.
    var applicationValues: StateValues
    /// One record per preserved controller, parents before their children.
    public var controllers: [ArchivedController]
    /// One record per preserved object that is not a controller or a view (`StateRestoring`).
    public var objects: [ArchivedObject]
    /// The scene sessions of a scene-based app, in the order their windows were opened (empty for an
    /// app without scenes, whose archive is written in format 3, byte for byte as before scenes).
    public var sceneSessions: [ArchivedSceneSession] = []

    /// An archive of the given parts.
    public init(
        header: ArchiveHeader, applicationState: [String: StateValue], controllers: [ArchivedController],
        objects: [ArchivedObject] = []
    ) {
        self.init(header: header, applicationValues: StateValues(applicationState), controllers: controllers, objects: objects)
    }

    /// An archive of the given parts, the application's values already sorted.
    init(
        header: ArchiveHeader, applicationValues: StateValues, controllers: [ArchivedController], objects: [ArchivedObject],
        sceneSessions: [ArchivedSceneSession] = []
    ) {
        self.header = header
        self.applicationValues = applicationValues
        self.controllers = controllers
        self.objects = objects
        self.sceneSessions = sceneSessions
    }
}

/// The archive's header fields.
public struct ArchiveHeader: Equatable, Sendable {
    /// The format version the archive is written in.
    public var formatVersion: UInt16
    /// The app build that wrote it; another build discards it (`build-mismatch`).
    public var buildVersion: String
    /// When it was written, in microseconds since the Unix epoch.
    public var timestamp: UInt64
    /// A counter that grows with every preservation; the newest valid copy wins.
    public var generation: UInt64

    /// A header of the given fields (`formatVersion` defaults to the one this build writes).
    public init(formatVersion: UInt16 = ArchiveCodec.formatVersion, buildVersion: String, timestamp: UInt64, generation: UInt64) {
        self.formatVersion = formatVersion
        self.buildVersion = buildVersion
        self.timestamp = timestamp
        self.generation = generation
    }
}

/// One preserved view controller.
public struct ArchivedController: Equatable, Sendable {
    /// Where its path is stored: records of one preservation (or one decoded archive) share a
    /// table, so a record costs the same at any depth.
    var location: PathReference

    /// Restoration identifiers from the root to this controller (built on each read: prefer
    /// `identifier` when only the last one is needed).
    public var path: [String] {
        get { location.path }
        set { location = PathReference(path: newValue) }
    }

    /// Its restoration identifier, the last of `path` (nil for an empty path).
    public var identifier: String? { location.last }

    /// How many identifiers `path` has.
    public var depth: Int { location.depth }

    /// The last `count` identifiers of `path` (all of them when it has fewer), without building the
    /// rest: for showing a deep path in bounded space.
    public func pathSuffix(_ count: Int) -> [String] {
        var suffix: [String] = []
        var node = Int(location.node)
        while node != 0, suffix.count < count {
            suffix.append(location.table.identifiers[node])
            node = Int(location.table.parents[node])
        }
        return suffix.reversed()
    }

    /// The controller's class (module-qualified), checked against the one restoration returns.
    public var className: String
    /// The restoration class's name (module-qualified), if the controller had one.
    public var restorationClassName: String?
    /// Its preserved children, pushed controllers, presented controller and selected tab, by identifier.
    public var relationships: [ArchivedRelationship]
    /// What the controller encoded in `encodeRestorableState(with:)`.
    public var state: [String: StateValue] {
        get { stateValues.dictionary }
        set { stateValues = StateValues(newValue) }
    }
    /// The same, sorted by key.
    var stateValues: StateValues
    /// Its views that have restoration identifiers, depth first.
    public var views: [ArchivedView]

    /// A record of the given parts.
    public init(
        path: [String], className: String, restorationClassName: String?,
        relationships: [ArchivedRelationship], state: [String: StateValue], views: [ArchivedView] = []
    ) {
        self.init(
            location: PathReference(path: path), className: className, restorationClassName: restorationClassName,
            relationships: relationships, state: StateValues(state), views: views)
    }

    /// A record whose path is a node of a shared table.
    init(
        location: PathReference, className: String, restorationClassName: String?,
        relationships: [ArchivedRelationship], state: StateValues, views: [ArchivedView]
    ) {
        self.location = location
        self.className = className
        self.restorationClassName = restorationClassName
        self.relationships = relationships
        self.stateValues = state
        self.views = views
    }
}

/// One preserved view, inside its controller's record.
public struct ArchivedView: Equatable, Sendable {
    /// Its restoration identifier, unique among its controller's views.
    public var identifier: String
    /// Its class (module-qualified); a view of another class at restoration is not decoded.
    public var className: String
    /// What it encoded in `encodeRestorableState(with:)`.
    public var state: [String: StateValue] {
        get { stateValues.dictionary }
        set { stateValues = StateValues(newValue) }
    }
    /// The same, sorted by key.
    var stateValues: StateValues

    /// A record of the given parts.
    public init(identifier: String, className: String, state: [String: StateValue]) {
        self.init(identifier: identifier, className: className, state: StateValues(state))
    }

    /// A record of the given parts.
    init(identifier: String, className: String, state: StateValues) {
        self.identifier = identifier
        self.className = className
        self.stateValues = state
    }
}

/// One preserved object that is neither a controller nor a view (`UIStateRestoring`).
public struct ArchivedObject: Equatable, Sendable {
    /// Where its path is stored: a decoded archive's objects share the table of its controllers, so
    /// that decoding costs the same whatever the depth (a forged archive of many objects under a
    /// deep path would otherwise make depth × objects identifiers).
    var location: PathReference

    /// Its restoration path: its restoration parent's path (if any) and its identifier (built on
    /// each read).
    public var path: [String] {
        get { location.path }
        set { location = PathReference(path: newValue) }
    }

    /// The name of its object restoration class, if it has one.
    public var restorationClassName: String?
    /// What it encoded in `encodeRestorableState(with:)`.
    public var state: [String: StateValue]

    /// A record of the given parts.
    public init(path: [String], restorationClassName: String?, state: [String: StateValue]) {
        self.init(location: PathReference(path: path), restorationClassName: restorationClassName, state: state)
    }

    /// A record whose path is a node of a shared table.
    init(location: PathReference, restorationClassName: String?, state: [String: StateValue]) {
        self.location = location
        self.restorationClassName = restorationClassName
        self.state = state
    }
}

/// A link from a preserved controller to another one below it.
public struct ArchivedRelationship: Equatable, Sendable {
    /// How the two controllers are related.
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// A contained child (a tab, or any custom container's child).
        case child = 1
        /// A controller on a navigation stack, bottom first.
        case pushed = 2
        /// The controller this one presents.
        case presented = 3
        /// The selected tab of a tab bar.
        case selectedTab = 4
    }

    /// How they are related.
    public var kind: Kind
    /// The other controller's restoration identifier (its path is this one's plus it).
    public var identifier: String

    /// A relationship of `kind` to the controller named `identifier`.
    public init(_ kind: Kind, _ identifier: String) {
        self.kind = kind
        self.identifier = identifier
    }
}
