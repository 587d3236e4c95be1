import GRDB
import Synchronization
package import RelaunchContract

extension PermissionDatabase {
    /// Stores `state` for `permission` of `app` and records the change in the history, in one
    /// transaction that is durable when this returns.
    ///
    /// Setting the state a permission already has stores and records nothing.
    /// - Parameter owing: when the change must kill the app's running instance, the kill it owes;
    ///   it is committed in the same transaction (see ``commit(app:states:callerUID:at:owing:)``).
    /// - Returns: the change, with the old state; `changed` is false when nothing was stored.
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    @discardableResult
    package func set(
        app: String, permission: Permission, to state: PermissionState, callerUID: UInt32, at: UInt64,
        owing: KillOwed? = nil
    ) throws(PermissionDatabaseError) -> StoredPermissionChange {
        try commit(app: app, states: [(permission, state)], callerUID: callerUID, at: at, owing: owing)
            .changes.first!
    }

    /// Puts `permission` of `app` (every permission when `nil`) back to `not-determined`,
    /// recording each actual change in the history, in one transaction.
    ///
    /// - Returns: the permissions that changed, in `Permission.allCases` order (empty if none did).
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    @discardableResult
    package func reset(
        app: String, permission: Permission?, callerUID: UInt32, at: UInt64
    ) throws(PermissionDatabaseError) -> [StoredPermissionChange] {
        let permissions = permission.map { [$0] } ?? Permission.allCases
        return try commit(
            app: app, states: permissions.map { ($0, .notDetermined) }, callerUID: callerUID, at: at, owing: nil
        ).changes.filter(\.changed)
    }

    /// Stores `states` of `app` and their history rows, and, when `owing` says some of the changes
    /// kill the instance running now, the pending kill they owe: all in one durable transaction.
    ///
    /// - Returns: every change (in the order of `states`; unchanged ones too) and the pending kill.
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    package func commit(
        app: String, states: [(Permission, PermissionState)], callerUID: UInt32, at: UInt64, owing: KillOwed?
    ) throws(PermissionDatabaseError) -> (changes: [StoredPermissionChange], pending: PendingKill?) {
        let what = states.count == 1 ? "set \(states[0].0) for \(app) to \(states[0].1)" : "reset \(app)"
        let result = try perform(what) {
            try queue.write { db in
                let changes = try states.map { permission, state in
                    try Self.store(db, app: app, permission: permission, state: state, callerUID: callerUID, at: at)
                }
                var pending: PendingKill?
                if let owing {
                    let killing = changes.filter { $0.changed && owing.kills($0) }
                    if let cause = killing.first {
                        pending = try Self.insertPending(
                            db, owing: owing, cause: cause, historyIDs: killing.compactMap(\.historyID))
                    }
                }
                return (changes, pending)
            }
        }
        cache.withLock { cache in
            for change in result.0 where change.changed { cache.states[app, default: [:]][change.permission] = change.new }
        }
        return result
    }

    /// Has ``lastKill(app:)`` answer `kill` while it is being carried out, before ``resolve(_:killed:)``
    /// records it: a standby that took over asks within a millisecond of the SIGKILL, which may be
    /// before permissiond has seen the process gone. Returns what it answered before, for
    /// ``withdraw(inFlight:restoring:)`` when the kill does not happen.
    package func announce(inFlight kill: KillRecord) -> KillRecord? {
        cache.withLock { cache in
            defer { cache.lastKills[kill.app] = kill }
            return cache.lastKills[kill.app]
        }
    }

    /// Takes back an in-flight kill that did not happen: ``lastKill(app:)`` answers `previous` again
    /// (unless another kill of the app came meanwhile).
    package func withdraw(inFlight kill: KillRecord, restoring previous: KillRecord?) {
        cache.withLock { cache in
            if cache.lastKills[kill.app] == kill { cache.lastKills[kill.app] = previous }
        }
    }

    /// Records a kill that was carried out (or, with `kill` nil, that is moot: the instance that
    /// owed it is gone) and removes the pending kill, in one transaction. With a kill, the history
    /// rows of the pending kill are marked as having killed that instance.
    package func resolve(_ pending: PendingKill, killed kill: KillRecord?) throws(PermissionDatabaseError) {
        try perform("record the kill of \(pending.unit) for \(pending.app)") {
            try queue.write { db in
                if let kill { try Self.insertKill(db, kill, causedBy: pending.historyIDs) }
                try db.execute(sql: "DELETE FROM pending_kill WHERE id = ?", arguments: [pending.id])
            }
        }
        if let kill { cache.withLock { $0.lastKills[kill.app] = kill } }
    }

    /// Counts a failed attempt to carry out `pending`, and whether its change was announced (logged
    /// and signalled) already.
    package func noteAttempt(
        _ pending: PendingKill, error: String, announced: Bool
    ) throws(PermissionDatabaseError) {
        try perform("note a failed kill of \(pending.unit)") {
            try queue.write { db in
                try db.execute(
                    sql: """
                        UPDATE pending_kill SET attempts = attempts + 1, last_error = ?,
                        announced = announced OR ? WHERE id = ?
                        """,
                    arguments: [String(error.prefix(500)), announced, pending.id])
            }
        }
    }

    /// Every kill still owed, oldest first.
    package func pendingKills() throws(PermissionDatabaseError) -> [PendingKill] {
        try perform("read the pending kills") {
            try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM pending_kill ORDER BY id").map { (row) throws -> PendingKill in
                    PendingKill(
                        id: row["id"], app: row["app"], unit: row["unit"], invocationID: row["invocation_id"],
                        permission: try Self.decode(row["permission"]), old: try Self.decode(row["old_state"]),
                        new: try Self.decode(row["new_state"]),
                        historyIDs: (row["history_ids"] as String).split(separator: ",").compactMap { Int64($0) },
                        changedAt: UInt64(clamping: row["changed_at"] as Int64), announced: row["announced"],
                        attempts: row["attempts"])
                }
            }
        }
    }

    /// The changes recorded in the history rows `ids`, in id order.
    package func changes(historyIDs ids: [Int64]) throws(PermissionDatabaseError) -> [StoredPermissionChange] {
        guard !ids.isEmpty else { return [] }
        return try perform("read history rows") {
            try queue.read { db in
                let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM permission_history WHERE id IN (\(marks)) ORDER BY id",
                    arguments: StatementArguments(ids))
                return try rows.map { (row) throws -> StoredPermissionChange in
                    StoredPermissionChange(
                        app: row["app"], permission: try Self.decode(row["permission"]),
                        old: try Self.decode(row["old_state"]), new: try Self.decode(row["new_state"]),
                        at: UInt64(clamping: row["at"] as Int64), callerUID: UInt32(clamping: row["caller_uid"] as Int64),
                        historyID: row["id"])
                }
            }
        }
    }

    /// Records that `kill.unit` was killed for a permission change, and marks the history rows
    /// `causedBy` (from `StoredPermissionChange.historyID`) as having killed that unit instance.
    ///
    /// - Throws: `PermissionDatabaseError` when the write fails; nothing is stored then.
    package func recordKill(_ kill: KillRecord, causedBy historyIDs: [Int64] = []) throws(PermissionDatabaseError) {
        try perform("record the kill of \(kill.unit) for \(kill.app)") {
            try queue.write { db in try Self.insertKill(db, kill, causedBy: historyIDs) }
        }
        cache.withLock { $0.lastKills[kill.app] = kill }
    }

    private static func insertKill(_ db: Database, _ kill: KillRecord, causedBy historyIDs: [Int64]) throws {
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

    private static func insertPending(
        _ db: Database, owing: KillOwed, cause: StoredPermissionChange, historyIDs: [Int64]
    ) throws -> PendingKill {
        let ids = historyIDs.map(String.init).joined(separator: ",")
        try db.cachedStatement(
            sql: """
                INSERT INTO pending_kill (app, unit, invocation_id, permission, old_state, new_state, history_ids, changed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                cause.app, owing.unit, owing.invocationID, cause.permission.rawValue, cause.old.rawValue,
                cause.new.rawValue, ids, Int64(clamping: cause.at),
            ])
        return PendingKill(
            id: db.lastInsertedRowID, app: cause.app, unit: owing.unit, invocationID: owing.invocationID,
            permission: cause.permission, old: cause.old, new: cause.new, historyIDs: historyIDs,
            changedAt: cause.at, announced: false, attempts: 0)
    }

    /// A kill record read from an `app_kill` row.
    static func killRecord(_ row: Row) throws -> KillRecord {
        KillRecord(
            app: row["app"], unit: row["unit"], permission: try decode(row["permission"]),
            old: try decode(row["old_state"]), new: try decode(row["new_state"]),
            invocationID: row["invocation_id"], at: UInt64(clamping: row["at"] as Int64))
    }

    /// The `limit` most recent changes of `app`, oldest first.
    package func history(app: String, limit: Int = 100) throws(PermissionDatabaseError) -> [HistoryEntry] {
        try perform("read the history of \(app)") {
            try queue.read { db in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM permission_history WHERE app = ? ORDER BY id DESC LIMIT ?",
                    arguments: [app, max(0, limit)])
                return try rows.reversed().map { (row) throws -> HistoryEntry in
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
    ) throws -> StoredPermissionChange {
        let old = try Self.state(db, app: app, permission: permission)
        var change = StoredPermissionChange(app: app, permission: permission, old: old, new: state, at: at, callerUID: callerUID)
        guard change.changed else { return change }
        let time = Int64(clamping: at)
        try db.cachedStatement(
            sql: """
                INSERT INTO permission_state (app, permission, state, changed_at, changed_by) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app, permission) DO UPDATE
                SET state = excluded.state, changed_at = excluded.changed_at, changed_by = excluded.changed_by
                """
        ).execute(
            arguments: [app, permission.rawValue, state.rawValue, time, Int64(callerUID)])
        try db.cachedStatement(
            sql: """
                INSERT INTO permission_history (app, permission, old_state, new_state, at, caller_uid)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [app, permission.rawValue, old.rawValue, state.rawValue, time, Int64(callerUID)])
        change.historyID = db.lastInsertedRowID
        return change
    }

    /// Decodes a stored enum value; a value this version does not know means a damaged or newer file.
    static func decode<Value: RawRepresentable<String>>(_ raw: String) throws -> Value {
        guard let value = Value(rawValue: raw) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown \(Value.self) '\(raw)' stored")
        }
        return value
    }
}
