import Foundation
@testable import PermissionStore

/// A fresh directory under the system temporary directory, removed when the value is dropped.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let template = NSTemporaryDirectory() + "permissionstore-tests.XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside this directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside this directory and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let path = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Opens (or creates) the permission database in this directory.
    func openDatabase(_ name: String = "permissions.db") throws -> PermissionDatabase {
        try PermissionDatabase(path: file(name))
    }
}
