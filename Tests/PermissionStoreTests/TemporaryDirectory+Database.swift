@testable import PermissionStore
import RelaunchTestSupport

extension TemporaryDirectory {
    /// Opens (or creates) the permission database in this directory.
    func openDatabase(_ name: String = "permissions.db") throws -> PermissionDatabase {
        try PermissionDatabase(path: path(name))
    }
}
