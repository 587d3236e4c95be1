import GRDB

/// A failure of the permission store, naming the database file and what to do about it.
package struct PermissionDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    package enum Code: String, Sendable, Hashable {
        /// The file exists but is not a SQLite database, or its contents are damaged.
        case corrupt
        /// The file could not be opened or created (missing directory, permissions, disk).
        case cannotOpen
        /// The file is a database but its schema could not be brought up to date.
        case migrationFailed
        /// A read or write on an open database failed.
        case operationFailed
    }

    /// What kind of failure this is.
    package var code: Code
    /// The database file.
    package var path: String
    /// What was being done: "open", "set camera for myapp", ….
    package var operation: String
    /// The underlying SQLite message.
    package var detail: String

    /// Creates an error.
    package init(code: Code, path: String, operation: String, detail: String) {
        self.code = code
        self.path = path
        self.operation = operation
        self.detail = detail
    }

    /// One line: what failed, on which file, why, and what to do.
    package var description: String {
        switch code {
        case .corrupt:
            "permission database \(path) is not a valid SQLite database or is damaged (\(detail)); "
                + "move it aside and restart permissiond to start with an empty store"
        case .cannotOpen:
            "cannot open permission database \(path): \(detail); "
                + "check that its directory exists and is writable by permissiond"
        case .migrationFailed:
            "cannot update the schema of permission database \(path): \(detail); "
                + "it may come from a newer permissiond: use that version or move the file aside"
        case .operationFailed:
            "permission database \(path): \(operation) failed: \(detail)"
        }
    }
}

extension PermissionDatabaseError {
    /// Classifies any error thrown by GRDB while doing `operation` on the database at `path`.
    static func classify(_ error: any Error, path: String, operation: String) -> Self {
        if let error = error as? PermissionDatabaseError { return error }
        guard let error = error as? DatabaseError else {
            return Self(code: .operationFailed, path: path, operation: operation, detail: "\(error)")
        }
        let detail = error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return Self(code: .corrupt, path: path, operation: operation, detail: detail)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            return Self(code: .cannotOpen, path: path, operation: operation, detail: detail)
        default:
            return Self(code: .operationFailed, path: path, operation: operation, detail: detail)
        }
    }
}
