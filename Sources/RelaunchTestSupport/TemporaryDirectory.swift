public import Foundation

/// A fresh folder of its own under the temporary directory, removed with its contents when the value
/// goes away (keep it alive for as long as its files are used).
///
/// The one temp-folder helper of every test target (STYLE 18); a target adds what only it needs in an
/// extension of its own (PermissionStoreTests' `openDatabase`).
public final class TemporaryDirectory: Sendable {
    public let url: URL
    /// The folder's path.
    public var path: String { url.path }

    /// Makes the folder, named `prefix` and a UUID, under the temporary directory.
    /// - Throws: what FileManager throws when the folder cannot be made.
    public init(prefix: String = "relaunch-test") throws {
        let base = FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Runs `body` with a fresh folder's path, removed once `body` returns or throws.
    public static func with(prefix: String = "relaunch-test", _ body: (String) throws -> Void) throws {
        let directory = try TemporaryDirectory(prefix: prefix)
        try withExtendedLifetime(directory) { try body(directory.path) }
    }

    /// ``with(prefix:_:)`` for an async `body` (a name of its own: in an async test an overload would
    /// take every call).
    public static func withAsync(prefix: String = "relaunch-test", _ body: (String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory(prefix: prefix)
        try await body(directory.path)
        withExtendedLifetime(directory) {}
    }

    /// A path inside the folder, as a URL.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// A path inside the folder.
    public func path(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside the folder and returns its path.
    /// - Throws: what `Data.write(to:)` throws.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to `name` inside the folder and returns its path.
    /// - Throws: what `Data.write(to:)` throws.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: file(name))
        return path(name)
    }

    /// The text of `name` inside the folder.
    /// - Throws: what `Data(contentsOf:)` throws.
    public func read(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    /// The bytes of `name` inside the folder.
    /// - Throws: what `Data(contentsOf:)` throws.
    public func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: file(name)))
    }

    /// Makes the folder `name` inside this one (its parent must exist) and returns its path.
    /// - Throws: what FileManager throws.
    @discardableResult
    public func makeFolder(_ name: String, permissions: Int = 0o755) throws -> String {
        try FileManager.default.createDirectory(
            atPath: path(name), withIntermediateDirectories: false, attributes: [.posixPermissions: permissions])
        return path(name)
    }

    /// Whether `name` exists inside the folder; a symbolic link is not followed.
    public func exists(_ name: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path(name))) != nil
    }
}
