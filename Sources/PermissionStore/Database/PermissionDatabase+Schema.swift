import GRDB

extension PermissionDatabase {
    /// The schema's migrations, in order. Never edit a shipped migration: add a new one.
    ///
    /// - `permission_state`: the current state of each (app, permission) ever set; a missing row
    ///   means `not-determined`.
    /// - `permission_history`: every change, oldest first by `id`, with whether it killed the app.
    /// - `app_kill`: every kill of an app's unit, for `LastKill(app)`.
    /// - `pending_kill` (v2): kills owed by committed changes and not yet carried out (the outbox).
    /// - v3: `permission_state` and `permission_history` accept the profiles' states.
    ///
    /// Times are microseconds since the Unix epoch; uids are the callers' D-Bus unix user ids.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: state, history, kills") { db in
            let states = "('allowed', 'denied', 'not-determined')"
            try db.create(table: "permission_state") { t in
                t.column("app", .text).notNull()
                t.column("permission", .text).notNull()
                t.column("state", .text).notNull().check(sql: "state IN \(states)")
                t.column("changed_at", .integer).notNull()
                t.column("changed_by", .integer).notNull()
                t.primaryKey(["app", "permission"])
            }
            try db.create(table: "permission_history") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("app", .text).notNull()
                t.column("permission", .text).notNull()
                t.column("old_state", .text).notNull().check(sql: "old_state IN \(states)")
                t.column("new_state", .text).notNull().check(sql: "new_state IN \(states)")
                t.column("at", .integer).notNull()
                t.column("caller_uid", .integer).notNull()
                t.column("killed", .boolean).notNull().defaults(to: false)
                t.column("invocation_id", .text)
            }
            try db.create(index: "permission_history_by_app", on: "permission_history", columns: ["app", "id"])
            try db.create(table: "app_kill") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("app", .text).notNull()
                t.column("unit", .text).notNull()
                t.column("permission", .text).notNull()
                t.column("old_state", .text).notNull()
                t.column("new_state", .text).notNull()
                t.column("invocation_id", .text).notNull()
                t.column("at", .integer).notNull()
            }
            try db.create(index: "app_kill_by_app", on: "app_kill", columns: ["app", "id"])
        }
        // The outbox: a change that must kill is committed together with its pending kill, which
        // is removed (and the kill recorded) in one transaction once it was carried out or is moot.
        migrator.registerMigration("v2: pending kills") { db in
            try db.create(table: "pending_kill") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("app", .text).notNull()
                t.column("unit", .text).notNull()
                t.column("invocation_id", .text).notNull()
                t.column("permission", .text).notNull()
                t.column("old_state", .text).notNull()
                t.column("new_state", .text).notNull()
                t.column("history_ids", .text).notNull()
                t.column("changed_at", .integer).notNull()
                t.column("announced", .boolean).notNull().defaults(to: false)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("last_error", .text)
            }
        }
        // The profiles' richer states (limited, add-only, while-using-approximate, …). SQLite cannot
        // widen a CHECK in place, so both tables whose states it checks are rebuilt under the same
        // names, rows and ids kept: a state stored before keeps its word and its meaning. The list is
        // written out, not taken from PermissionState, so this migration never changes once shipped.
        migrator.registerMigration("v3: profile states") { db in
            let states = """
                ('allowed', 'denied', 'not-determined', 'limited', 'add-only', 'write-only', \
                'while-using-approximate', 'always', 'always-approximate', 'provisional', 'allowed-once')
                """
            try db.create(table: "permission_state_v3") { t in
                t.column("app", .text).notNull()
                t.column("permission", .text).notNull()
                t.column("state", .text).notNull().check(sql: "state IN \(states)")
                t.column("changed_at", .integer).notNull()
                t.column("changed_by", .integer).notNull()
                t.primaryKey(["app", "permission"])
            }
            try db.execute(sql: "INSERT INTO permission_state_v3 SELECT app, permission, state, changed_at, changed_by FROM permission_state")
            try db.drop(table: "permission_state")
            try db.rename(table: "permission_state_v3", to: "permission_state")
            try db.create(table: "permission_history_v3") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("app", .text).notNull()
                t.column("permission", .text).notNull()
                t.column("old_state", .text).notNull().check(sql: "old_state IN \(states)")
                t.column("new_state", .text).notNull().check(sql: "new_state IN \(states)")
                t.column("at", .integer).notNull()
                t.column("caller_uid", .integer).notNull()
                t.column("killed", .boolean).notNull().defaults(to: false)
                t.column("invocation_id", .text)
            }
            try db.execute(
                sql: """
                    INSERT INTO permission_history_v3 (id, app, permission, old_state, new_state, at, caller_uid, killed, invocation_id)
                    SELECT id, app, permission, old_state, new_state, at, caller_uid, killed, invocation_id FROM permission_history
                    """)
            try db.drop(table: "permission_history")
            try db.rename(table: "permission_history_v3", to: "permission_history")
            try db.create(index: "permission_history_by_app", on: "permission_history", columns: ["app", "id"])
        }
        return migrator
    }()
}
