package import RelaunchContract

/// Something the permission service did or the daemon must do after a request, in order.
package enum PermissionEffect: Sendable, Hashable {
    /// The app's unit was killed through ``UnitController`` and the kill recorded in the store.
    /// Already done: the daemon has nothing to perform (it may log it at debug level).
    case killed(KillRecord)
    /// Write this entry to the journal.
    case log(JournalEntry)
    /// Emit `Changed(s app, s permission, s old_state, s new_state, b killed)`.
    case emitChanged(ChangedSignal)
    /// Something went wrong that no caller is waiting to hear (a kill given up on): log it as an error.
    case problem(String)
}

/// The arguments of the `Changed` signal.
package struct ChangedSignal: Sendable, Hashable {
    /// The app id.
    package var app: String
    /// The permission that changed.
    package var permission: Permission
    /// Its state before.
    package var old: PermissionState
    /// Its state now.
    package var new: PermissionState
    /// Whether this change killed the app's running unit.
    package var killed: Bool

    /// Creates the signal's arguments.
    package init(app: String, permission: Permission, old: PermissionState, new: PermissionState, killed: Bool) {
        self.app = app
        self.permission = permission
        self.old = old
        self.new = new
        self.killed = killed
    }
}

/// One structured journal entry: its MESSAGE_ID, human MESSAGE and the contract's fields.
package struct JournalEntry: Sendable, Hashable {
    /// The event's id (`MESSAGE_ID=`).
    package var messageID: MessageID
    /// The human-readable line (`MESSAGE=`).
    package var message: String
    /// The event's own fields, upper-case journal names → values; without MESSAGE and MESSAGE_ID.
    package var fields: [String: String]

    /// Creates an entry.
    package init(messageID: MessageID, message: String, fields: [String: String]) {
        self.messageID = messageID
        self.message = message
        self.fields = fields
    }

    /// Every field to send, including `MESSAGE_ID` and `MESSAGE`.
    package var allFields: [String: String] {
        fields.merging(["MESSAGE_ID": messageID.rawValue, "MESSAGE": message]) { _, new in new }
    }

    /// "permission changed": APP_ID, PERMISSION, OLD_STATE, NEW_STATE, CALLER_UID, and KILL,
    /// which is `true` when this change killed the app's running unit and `false` otherwise; plus
    /// CHANGED_USEC, when the change was committed (the entry reaches the journal later, after the kill);
    /// plus CHANGE_REASON when permissiond made the change itself (`one-time grant expired`).
    static func permissionChanged(_ change: StoredPermissionChange, killed: Bool, reason: String? = nil) -> Self {
        let consequence = killed ? "; the app was killed to apply it" : ""
        let why = reason.map { " (\($0))" } ?? ""
        var entry = Self(
            messageID: .permissionChanged,
            message: "\(change.app): \(change.permission) changed from \(change.old) to \(change.new) "
                + "by uid \(change.callerUID)\(why)\(consequence)",
            fields: [
                "APP_ID": change.app,
                "PERMISSION": change.permission.rawValue,
                "OLD_STATE": change.old.rawValue,
                "NEW_STATE": change.new.rawValue,
                "CALLER_UID": String(change.callerUID),
                "KILL": killed ? "true" : "false",
                "CHANGED_USEC": String(change.at),
            ])
        if let reason { entry.fields["CHANGE_REASON"] = reason }
        return entry
    }

    /// "app killed for a permission change": APP_ID, UNIT, PERMISSION, SIGNAL (`KILL`, as systemd
    /// prints `status=9/KILL`), plus OLD_STATE, NEW_STATE and KILLED_INVOCATION_ID (the
    /// InvocationID of the instance that was killed) and KILLED_USEC (when the kill was sent).
    static func appKilled(_ kill: KillRecord) -> Self {
        Self(
            messageID: .appKilled,
            message: "\(kill.app): killed \(kill.unit) with SIGKILL because \(kill.permission) changed "
                + "from \(kill.old) to \(kill.new)",
            fields: [
                "APP_ID": kill.app,
                "UNIT": kill.unit,
                "PERMISSION": kill.permission.rawValue,
                "SIGNAL": "KILL",
                "OLD_STATE": kill.old.rawValue,
                "NEW_STATE": kill.new.rawValue,
                "KILLED_INVOCATION_ID": kill.invocationID,
                "KILLED_USEC": String(kill.at),
            ])
    }
}
