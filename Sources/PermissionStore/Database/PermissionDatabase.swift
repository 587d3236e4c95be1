import GRDB
package import RelaunchContract
import Synchronization

/// The durable store of every app's permission states, their history and the kills they caused.
///
/// One SQLite file in WAL mode with `synchronous = FULL`: once a write method returns, the change
/// survives SIGKILL and a power cut. Every method is one transaction, so it is safe to call from
/// any thread or task; methods block while SQLite works (a write waits for fsync).
///
/// Times are microseconds since the Unix epoch (CLOCK_REALTIME); callers pass them in so tests and
/// the daemon agree on one clock.
///
/// Reads (``get(app:permission:)``, ``list(app:)``, ``lastKill(app:)``) are answered from memory: a
/// copy of the current states and last kills, loaded at open and updated after each commit, so a
/// read never waits for a write's fsync and never touches SQLite.
package final class PermissionDatabase: Sendable {
    /// The database file.
    package let path: String
    /// One connection: reads are answered from memory, so a pool's reader connections (and their
    /// page caches) would only cost memory.
    let queue: DatabaseQueue
    let cache = Mutex(ReadCache())

    /// What reads are answered from: exactly what is committed.
    struct ReadCache {
        var states: [String: [Permission: PermissionState]] = [:]
        var lastKills: [String: KillRecord] = [:]
    }

    /// Opens the store at `path`, creating the file if missing and migrating its schema.
    ///
    /// - Throws: `PermissionDatabaseError` with code `.corrupt` when the file is not a SQLite
    ///   database or fails its integrity check, `.cannotOpen` when it cannot be opened or created,
    ///   `.migrationFailed` when its schema cannot be brought up to date.
    package init(path: String) throws(PermissionDatabaseError) {
        self.path = path
        var configuration = Configuration()
        configuration.label = "permissiond"
        configuration.busyMode = .timeout(10)
        configuration.journalMode = .wal
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            // FULL syncs the WAL on every commit, so an acknowledged Set survives a power cut.
            // GRDB sets NORMAL when it turns WAL on (after prepareDatabase), so this comes after,
            // on the queue's one connection, which it keeps for its whole life.
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            let check = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
            guard check == "ok" else {
                throw PermissionDatabaseError(
                    code: .corrupt, path: path, operation: "open",
                    detail: "integrity check: \(check ?? "no answer")")
            }
        } catch {
            throw PermissionDatabaseError.classify(error, path: path, operation: "open")
        }
        do {
            try Self.migrator.migrate(queue)
        } catch {
            var error = PermissionDatabaseError.classify(error, path: path, operation: "migrate")
            if error.code == .operationFailed { error.code = .migrationFailed }
            throw error
        }
        let loaded = try perform("load the current states") {
            try queue.read { db in
                var loaded = ReadCache()
                for row in try Row.fetchAll(db, sql: "SELECT app, permission, state FROM permission_state") {
                    if let permission = Permission(rawValue: row["permission"]),
                        let state = PermissionState(rawValue: row["state"])
                    {
                        loaded.states[row["app"], default: [:]][permission] = state
                    }
                }
                let kills = try Row.fetchAll(
                    db, sql: "SELECT * FROM app_kill WHERE id IN (SELECT MAX(id) FROM app_kill GROUP BY app)")
                for row in kills {
                    let kill = try Self.killRecord(row)
                    loaded.lastKills[kill.app] = kill
                }
                return loaded
            }
        }
        cache.withLock { $0 = loaded }
    }

    /// Closes the file. Any later call fails with `.operationFailed`.
    package func close() throws(PermissionDatabaseError) {
        try perform("close") { try queue.close() }
    }

    /// The state of `permission` for `app`; `not-determined` when it was never set.
    package func get(app: String, permission: Permission) -> PermissionState {
        cache.withLock { $0.states[app]?[permission] } ?? .notDetermined
    }

    /// Every permission's state for `app`, `not-determined` for those never set.
    package func list(app: String) -> [Permission: PermissionState] {
        let stored = cache.withLock { $0.states[app] } ?? [:]
        var states: [Permission: PermissionState] = [:]
        for permission in Permission.allCases { states[permission] = stored[permission] ?? .notDetermined }
        return states
    }

    /// The most recent kill of `app`'s unit, or `nil` if it was never killed.
    package func lastKill(app: String) -> KillRecord? {
        cache.withLock { $0.lastKills[app] }
    }

    /// The ids of every app with a stored state, a history entry or a kill, sorted.
    package func apps() throws(PermissionDatabaseError) -> [String] {
        try perform("list apps") {
            try queue.read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT app FROM permission_state UNION SELECT app FROM permission_history
                        UNION SELECT app FROM app_kill ORDER BY app
                        """)
            }
        }
    }

    /// Runs `body`, turning any error into a `PermissionDatabaseError` naming `operation`.
    func perform<T>(_ operation: @autoclosure () -> String, _ body: () throws -> T) throws(PermissionDatabaseError) -> T {
        do {
            return try body()
        } catch {
            throw PermissionDatabaseError.classify(error, path: path, operation: operation())
        }
    }

    /// The stored state, or `not-determined` when there is no row (or an unknown value).
    static func state(_ db: Database, app: String, permission: Permission) throws -> PermissionState {
        let raw = try String.fetchOne(
            db.cachedStatement(sql: "SELECT state FROM permission_state WHERE app = ? AND permission = ?"),
            arguments: [app, permission.rawValue])
        return raw.flatMap(PermissionState.init(rawValue:)) ?? .notDetermined
    }
}
