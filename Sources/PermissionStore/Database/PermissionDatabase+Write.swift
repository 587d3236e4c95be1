import GRDB
public import RelaunchContract

extension PermissionDatabase {
    /// Stores `state` for `permission` of `app` and records the change in the history, in one
    /// transaction that is durable when this returns.
    ///
    /// Setting the state a permission already has stores and records nothing.
    /// - Returns: the change, with the old state; `changed` is false when nothing was stored.
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    @discardableResult
    public func set(
        app: String, permission: Permission, to state: PermissionState, callerUID: UInt32, at: UInt64
    ) throws(PermissionDatabaseError) -> PermissionChange {
        try perform("set \(permission) for \(app) to \(state)") {
            try pool.write { db in
                try Self.store(db, app: app, permission: permission, state: state, callerUID: callerUID, at: at)
            }
        }
    }

    /// Puts `permission` of `app` (every permission when `nil`) back to `not-determined`,
    /// recording each actual change in the history, in one transaction.
    ///
    /// - Returns: the permissions that changed, in `Permission.allCases` order (empty if none did).
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    @discardableResult
    public func reset(
        app: String, permission: Permission?, callerUID: UInt32, at: UInt64
    ) throws(PermissionDatabaseError) -> [PermissionChange] {
        let permissions = permission.map { [$0] } ?? Permission.allCases
        return try perform("reset \(permission?.rawValue ?? "every permission") for \(app)") {
            try pool.write { db in
                try permissions.map { permission in
                    try Self.store(db, app: app, permission: permission, state: .notDetermined, callerUID: callerUID, at: at)
                }.filter(\.changed)
            }
        }
    }

    /// Records that `kill.unit` was killed for a permission change, and marks the history rows
    /// `causedBy` (from `PermissionChange.historyID`) as having killed that unit instance.
    ///
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    public func recordKill(_ kill: KillRecord, causedBy historyIDs: [Int64] = []) throws(PermissionDatabaseError) {
        try perform("record the kill of \(kill.unit) for \(kill.app)") {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO app_kill (app, unit, permission, old_state, new_state, invocation_id, at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        kill.app, kill.unit, kill.permission.rawValue, kill.old.rawValue, kill.new.rawValue,
                        kill.invocationID, Int64(clamping: kill.at),
                    ])
                for id in historyIDs {
                    try db.execute(
                        sql: "UPDATE permission_history SET killed = 1, invocation_id = ? WHERE id = ? AND app = ?",
                        arguments: [kill.invocationID, id, kill.app])
                }
            }
        }
    }

    /// The most recent kill of `app`'s unit, or `nil` if it was never killed.
    public func lastKill(app: String) throws(PermissionDatabaseError) -> KillRecord? {
        try perform("read the last kill of \(app)") {
            try pool.read { db in
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM app_kill WHERE app = ? ORDER BY id DESC LIMIT 1", arguments: [app])
                return try row.map { row in
                    KillRecord(
                        app: row["app"], unit: row["unit"], permission: try Self.decode(row["permission"]),
                        old: try Self.decode(row["old_state"]), new: try Self.decode(row["new_state"]),
                        invocationID: row["invocation_id"], at: UInt64(clamping: row["at"] as Int64))
                }
            }
        }
    }

    /// The `limit` most recent changes of `app`, oldest first.
    public func history(app: String, limit: Int = 100) throws(PermissionDatabaseError) -> [HistoryEntry] {
        try perform("read the history of \(app)") {
            try pool.read { db in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM permission_history WHERE app = ? ORDER BY id DESC LIMIT ?",
                    arguments: [app, max(0, limit)])
                return try rows.reversed().map { row in
                    HistoryEntry(
                        id: row["id"], app: row["app"], permission: try Self.decode(row["permission"]),
                        old: try Self.decode(row["old_state"]), new: try Self.decode(row["new_state"]),
                        at: UInt64(clamping: row["at"] as Int64), callerUID: UInt32(clamping: row["caller_uid"] as Int64),
                        killed: row["killed"], invocationID: row["invocation_id"])
                }
            }
        }
    }

    /// Upserts one state and appends its history row, inside the caller's transaction.
    private static func store(
        _ db: Database, app: String, permission: Permission, state: PermissionState, callerUID: UInt32, at: UInt64
    ) throws -> PermissionChange {
        let old = try Self.state(db, app: app, permission: permission)
        var change = PermissionChange(app: app, permission: permission, old: old, new: state, at: at, callerUID: callerUID)
        guard change.changed else { return change }
        let time = Int64(clamping: at)
        try db.execute(
            sql: """
                INSERT INTO permission_state (app, permission, state, changed_at, changed_by) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app, permission) DO UPDATE
                SET state = excluded.state, changed_at = excluded.changed_at, changed_by = excluded.changed_by
                """,
            arguments: [app, permission.rawValue, state.rawValue, time, Int64(callerUID)])
        try db.execute(
            sql: """
                INSERT INTO permission_history (app, permission, old_state, new_state, at, caller_uid)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [app, permission.rawValue, old.rawValue, state.rawValue, time, Int64(callerUID)])
        change.historyID = db.lastInsertedRowID
        return change
    }

    /// Decodes a stored enum value; a value this version does not know means a damaged or newer file.
    private static func decode<Value: RawRepresentable<String>>(_ raw: String) throws -> Value {
        guard let value = Value(rawValue: raw) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown \(Value.self) '\(raw)' stored")
        }
        return value
    }
}
