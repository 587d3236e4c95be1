/// The "restoring" mark: set before a restore, cleared after; found at launch, it means the last
/// restore crashed and the saved state must be discarded (`crashed-during-restore`).
///
/// Injected into the app so that tests use `MemoryRestoringMark` and the executable `RestoringMarkFile`.
public protocol RestoringMarkStore: AnyObject {
    /// Whether the mark is set.
    func isSet() throws -> Bool
    /// Sets the mark durably.
    func set() throws
    /// Clears the mark.
    func clear() throws
}

/// The restoring mark as a file in a directory, written and deleted durably.
public final class RestoringMarkFile: RestoringMarkStore {
    private let file: ArchiveFile

    /// The mark `fileName` in `directory`.
    public init(directory: String, fileName: String = "restoring.mark") {
        file = ArchiveFile(directory: directory, fileName: fileName)
    }

    /// The mark's full path.
    public var path: String { file.path }

    /// Whether the mark file exists.
    public func isSet() throws -> Bool { file.exists() }

    /// Creates the mark file and flushes it and its directory.
    public func set() throws { try file.write(Array("restoring\n".utf8)) }

    /// Deletes the mark file.
    public func clear() throws { try file.remove() }
}

/// The restoring mark in memory, for tests and benchmarks.
public final class MemoryRestoringMark: RestoringMarkStore {
    /// Whether the mark is set.
    public var value: Bool

    /// A mark that starts set or clear.
    public init(_ value: Bool = false) { self.value = value }

    /// Whether the mark is set.
    public func isSet() throws -> Bool { value }
    /// Sets the mark.
    public func set() throws { value = true }
    /// Clears the mark.
    public func clear() throws { value = false }
}
