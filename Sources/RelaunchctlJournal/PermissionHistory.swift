import GRDBSQLite

#if canImport(Glibc)
import Glibc
#endif

/// permissiond's history as its database holds it, read without writing: `relaunchctl journal`
/// compares the journal with it (``HistoryCheck``), so that a change whose entries the journal lost
/// is still named.
///
/// The file is opened read-only (`SQLITE_OPEN_READONLY`), no migration runs, and one read
/// transaction sees every committed change (WAL), so it never changes what permissiond uses, even
/// while permissiond runs. SQLite's C API (GRDB's GRDBSQLite module), not GRDB: relaunchctl's static runtime has no Foundation.
/// The schema is PermissionStore's (`permission_history`, `pending_kill`).
enum PermissionHistory {
    /// One stored change, as strings (a database of a later version may hold states this build
    /// does not know; they still compare).
    struct Change: Sendable, Hashable {
        /// The history row's id (orders the changes even across clock steps).
        var id: Int64
        var app: String
        var permission: String
        var old: String
        var new: String
        /// When it was committed, µs since the epoch: the `CHANGED_USEC` of its journal entry.
        var atUSec: UInt64
        /// The caller's uid.
        var callerUID: Int64
    }

    /// Why the history could not be read: what failed, on which file.
    struct ReadError: Error, CustomStringConvertible {
        var path: String
        var operation: String
        var detail: String
        var description: String { "cannot \(operation) \(path): \(detail)" }
    }

    /// The changes committed from `sinceUSec` on (all when nil), of `app` only when given, oldest
    /// first, leaving out those whose kill is still owed (`pending_kill`): permissiond writes their
    /// journal entry once the kill is done.
    static func changes(path: String, sinceUSec: UInt64?, app: String?) throws(ReadError) -> [Change] {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(handle) }
        guard opened == SQLITE_OK, let db = handle else {
            throw ReadError(path: path, operation: "open", detail: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")
        }
        sqlite3_busy_timeout(db, 5000)
        func fail(_ operation: String) -> ReadError {
            ReadError(path: path, operation: operation, detail: String(cString: sqlite3_errmsg(db)))
        }
        // One read transaction: the outbox and the history as of the same commit.
        guard sqlite3_exec(db, "BEGIN", nil, nil, nil) == SQLITE_OK else { throw fail("read") }
        defer { sqlite3_exec(db, "COMMIT", nil, nil, nil) }

        var owed: Set<Int64> = []
        let outbox = try rows(db, "SELECT history_ids FROM pending_kill", bind: { _ in }, optionalTable: true) { row in
            text(row, 0)
        }
        if let outbox {
            for ids in outbox { owed.formUnion(ids.split(separator: ",").compactMap { Int64($0) }) }
        }
        let sql = "SELECT id, app, permission, old_state, new_state, at, caller_uid FROM permission_history"
            + " WHERE at >= ?1" + (app == nil ? "" : " AND app = ?2") + " ORDER BY id"
        let found = try rows(db, sql, bind: { statement in
            sqlite3_bind_int64(statement, 1, Int64(clamping: sinceUSec ?? 0))
            if let app { sqlite3_bind_text(statement, 2, app, -1, transient) }
        }, optionalTable: false) { row in
            Change(id: sqlite3_column_int64(row, 0), app: text(row, 1), permission: text(row, 2), old: text(row, 3),
                   new: text(row, 4), atUSec: UInt64(clamping: sqlite3_column_int64(row, 5)),
                   callerUID: sqlite3_column_int64(row, 6))
        } ?? []
        return found.filter { !owed.contains($0.id) }
    }

    /// SQLITE_TRANSIENT: SQLite copies a bound string.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Every row of `sql`, made by `make`; nil when `optionalTable` and the table does not exist
    /// (a database of schema v1 has no outbox).
    private static func rows<T>(
        _ db: OpaquePointer, _ sql: String, bind: (OpaquePointer) -> Void, optionalTable: Bool,
        _ make: (OpaquePointer) -> T
    ) throws(ReadError) -> [T]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            let detail = String(cString: sqlite3_errmsg(db))
            if optionalTable, detail.hasPrefix("no such table") { return nil }
            throw ReadError(path: String(cString: sqlite3_db_filename(db, "main")), operation: "read", detail: detail)
        }
        defer { sqlite3_finalize(statement) }
        bind(statement)
        var result: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: result.append(make(statement))
            case SQLITE_DONE: return result
            default:
                throw ReadError(path: String(cString: sqlite3_db_filename(db, "main")), operation: "read",
                                detail: String(cString: sqlite3_errmsg(db)))
            }
        }
    }

    /// Column `index` of the current row as text ("" for NULL).
    private static func text(_ row: OpaquePointer, _ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(row, index) else { return "" }
        return String(cString: bytes)
    }
}
