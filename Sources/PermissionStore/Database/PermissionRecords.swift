public import RelaunchContract

/// The outcome of storing one permission state: what it was before and what it is now.
///
/// `old == new` means nothing was stored: the permission already had that state.
public struct PermissionChange: Sendable, Hashable {
    /// The app id.
    public var app: String
    /// The permission.
    public var permission: Permission
    /// The state before the change (`not-determined` when never set).
    public var old: PermissionState
    /// The state after the change.
    public var new: PermissionState
    /// When the change was stored, in microseconds since the Unix epoch (CLOCK_REALTIME).
    public var at: UInt64
    /// The uid of the caller who asked for the change.
    public var callerUID: UInt32
    /// The history row recording this change; `nil` when nothing changed.
    public var historyID: Int64?

    /// Whether the state actually changed (and a history row was written).
    public var changed: Bool { old != new }

    /// Creates a change description; the store fills `historyID`.
    public init(
        app: String, permission: Permission, old: PermissionState, new: PermissionState,
        at: UInt64, callerUID: UInt32, historyID: Int64? = nil
    ) {
        self.app = app
        self.permission = permission
        self.old = old
        self.new = new
        self.at = at
        self.callerUID = callerUID
        self.historyID = historyID
    }
}

/// One kill of an app's unit for a permission change, as `LastKill(app)` answers it.
public struct KillRecord: Sendable, Hashable {
    /// The app id.
    public var app: String
    /// The systemd unit that was killed.
    public var unit: String
    /// The permission whose change caused the kill.
    public var permission: Permission
    /// That permission's state before the change.
    public var old: PermissionState
    /// Its state after the change.
    public var new: PermissionState
    /// The `InvocationID` of the unit instance that was killed (32 hex digits from systemd).
    public var invocationID: String
    /// When the kill was sent, in microseconds since the Unix epoch (CLOCK_REALTIME).
    public var at: UInt64

    /// Creates a kill record.
    public init(
        app: String, unit: String, permission: Permission, old: PermissionState,
        new: PermissionState, invocationID: String, at: UInt64
    ) {
        self.app = app
        self.unit = unit
        self.permission = permission
        self.old = old
        self.new = new
        self.invocationID = invocationID
        self.at = at
    }
}

/// One row of an app's permission history: a change, who made it, and whether it killed the app.
public struct HistoryEntry: Sendable, Hashable {
    /// The row id; increases with every change, so it orders the history even if the clock jumps.
    public var id: Int64
    /// The app id.
    public var app: String
    /// The permission.
    public var permission: Permission
    /// The state before the change.
    public var old: PermissionState
    /// The state after the change.
    public var new: PermissionState
    /// When the change was stored, in microseconds since the Unix epoch (CLOCK_REALTIME).
    public var at: UInt64
    /// The uid of the caller who asked for the change.
    public var callerUID: UInt32
    /// Whether the change killed the app's running unit.
    public var killed: Bool
    /// The `InvocationID` of the killed unit instance, or `nil` when nothing was killed.
    public var invocationID: String?
}

/// The kill a change owes when it is committed: the instance of `unit` running now, and which
/// changes kill it (the kill policy).
public struct KillOwed: Sendable {
    /// The app's unit.
    public var unit: String
    /// The InvocationID of the instance running when the change is committed: the one to kill.
    public var invocationID: String
    /// Whether a change kills (the kill policy).
    public var kills: @Sendable (PermissionChange) -> Bool

    /// Creates the description of an owed kill.
    public init(unit: String, invocationID: String, kills: @escaping @Sendable (PermissionChange) -> Bool) {
        self.unit = unit
        self.invocationID = invocationID
        self.kills = kills
    }
}

/// A kill committed with its change and not yet carried out (a row of the outbox).
public struct PendingKill: Sendable, Hashable {
    /// The row id.
    public var id: Int64
    /// The app id.
    public var app: String
    /// The unit to kill.
    public var unit: String
    /// The instance to kill: the unit's InvocationID when the change was committed.
    public var invocationID: String
    /// The change that causes the kill (the first, when several do).
    public var permission: Permission
    /// Its state before.
    public var old: PermissionState
    /// Its state after.
    public var new: PermissionState
    /// The history rows of every change that owes this kill.
    public var historyIDs: [Int64]
    /// When the change was committed (µs since the Unix epoch).
    public var changedAt: UInt64
    /// Whether the change was already logged and signalled (an earlier attempt failed after that).
    public var announced: Bool
    /// Failed attempts so far.
    public var attempts: Int

    /// Creates a pending kill.
    public init(
        id: Int64, app: String, unit: String, invocationID: String, permission: Permission, old: PermissionState,
        new: PermissionState, historyIDs: [Int64], changedAt: UInt64, announced: Bool, attempts: Int
    ) {
        self.id = id
        self.app = app
        self.unit = unit
        self.invocationID = invocationID
        self.permission = permission
        self.old = old
        self.new = new
        self.historyIDs = historyIDs
        self.changedAt = changedAt
        self.announced = announced
        self.attempts = attempts
    }
}
