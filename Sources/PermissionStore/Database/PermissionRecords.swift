package import RelaunchContract

/// The outcome of storing one permission state: what it was before and what it is now.
///
/// `old == new` means nothing was stored: the permission already had that state.
package struct StoredPermissionChange: Sendable, Hashable {
    /// The app id.
    package var app: String
    /// The permission.
    package var permission: Permission
    /// The state before the change (`not-determined` when never set).
    package var old: PermissionState
    /// The state after the change.
    package var new: PermissionState
    /// When the change was stored, in microseconds since the Unix epoch (CLOCK_REALTIME).
    package var at: UInt64
    /// The uid of the caller who asked for the change.
    package var callerUID: UInt32
    /// The history row recording this change; `nil` when nothing changed.
    package var historyID: Int64?

    /// Whether the state actually changed (and a history row was written).
    package var changed: Bool { old != new }

    /// Creates a change description; the store fills `historyID`.
    package init(
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
package struct KillRecord: Sendable, Hashable {
    /// The app id.
    package var app: String
    /// The systemd unit that was killed.
    package var unit: String
    /// The permission whose change caused the kill.
    package var permission: Permission
    /// That permission's state before the change.
    package var old: PermissionState
    /// Its state after the change.
    package var new: PermissionState
    /// The `InvocationID` of the unit instance that was killed (32 hex digits from systemd).
    package var invocationID: String
    /// When the kill was sent, in microseconds since the Unix epoch (CLOCK_REALTIME).
    package var at: UInt64

    /// Creates a kill record.
    package init(
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
package struct HistoryEntry: Sendable, Hashable {
    /// The row id; increases with every change, so it orders the history even if the clock jumps.
    package var id: Int64
    /// The app id.
    package var app: String
    /// The permission.
    package var permission: Permission
    /// The state before the change.
    package var old: PermissionState
    /// The state after the change.
    package var new: PermissionState
    /// When the change was stored, in microseconds since the Unix epoch (CLOCK_REALTIME).
    package var at: UInt64
    /// The uid of the caller who asked for the change.
    package var callerUID: UInt32
    /// Whether the change killed the app's running unit.
    package var killed: Bool
    /// The `InvocationID` of the killed unit instance, or `nil` when nothing was killed.
    package var invocationID: String?
}

/// The kill a change owes when it is committed: the instance of `unit` running now, and which
/// changes kill it (the kill policy).
package struct KillOwed: Sendable {
    /// The app's unit.
    package var unit: String
    /// The InvocationID of the instance running when the change is committed: the one to kill.
    package var invocationID: String
    /// Whether a change kills (the kill policy).
    package var kills: @Sendable (StoredPermissionChange) -> Bool

    /// Creates the description of an owed kill.
    package init(unit: String, invocationID: String, kills: @escaping @Sendable (StoredPermissionChange) -> Bool) {
        self.unit = unit
        self.invocationID = invocationID
        self.kills = kills
    }
}

/// A kill committed with its change and not yet carried out (a row of the outbox).
package struct PendingKill: Sendable, Hashable {
    /// The row id.
    package var id: Int64
    /// The app id.
    package var app: String
    /// The unit to kill.
    package var unit: String
    /// The instance to kill: the unit's InvocationID when the change was committed.
    package var invocationID: String
    /// The change that causes the kill (the first, when several do).
    package var permission: Permission
    /// Its state before.
    package var old: PermissionState
    /// Its state after.
    package var new: PermissionState
    /// The history rows of every change that owes this kill.
    package var historyIDs: [Int64]
    /// When the change was committed (µs since the Unix epoch).
    package var changedAt: UInt64
    /// Whether the change was already logged and signalled (an earlier attempt failed after that).
    package var announced: Bool
    /// Failed attempts so far.
    package var attempts: Int

    /// Creates a pending kill.
    package init(
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
