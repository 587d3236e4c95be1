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
    private let note: String

    /// The mark `fileName` in `directory`; `note` (one line, e.g. the instance's invocation id) is
    /// written into it, so a later launch can tell which instance left a mark behind.
    public init(directory: String, fileName: String = "restoring.mark", note: String = "restoring") {
        file = ArchiveFile(directory: directory, fileName: fileName)
        self.note = note
    }

    /// The note of the mark now on disk, or nil when there is no mark.
    public func readNote() throws -> String? {
        guard let bytes = try file.read(limit: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// The mark's full path.
    public var path: String { file.path }

    /// Whether the mark file exists.
    public func isSet() throws -> Bool { file.exists() }

    /// Creates the mark file and flushes it and its directory.
    public func set() throws { try file.write(Array((note + "\n").utf8)) }

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
