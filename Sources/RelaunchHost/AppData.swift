internal import RestorationKit

/// `app.data` in the state directory: the app's data model (`AppEffect.saveData`), kept apart from
/// the restoration archive so that discarding saved state (a force quit, a corrupt archive, another
/// build) never touches it. Written atomically and durably, as the archive is.
struct AppData: Sendable {
    static let fileName = "app.data"
    /// Where bytes the app could not read are moved, so a bad build cannot destroy the user's data.
    static let unreadableFileName = "app.data.unreadable"
    /// The most a data model may take; past it the app is told nothing was saved.
    static let limit = 16 << 20

    private let file: ArchiveFile
    private let unreadable: ArchiveFile

    init(directory: String) {
        file = ArchiveFile(directory: directory, fileName: Self.fileName)
        unreadable = ArchiveFile(directory: directory, fileName: Self.unreadableFileName)
    }

    /// The saved bytes, nil when nothing was saved.
    /// - Throws: `StorageError` when the file exists but cannot be read.
    func read() throws(StorageError) -> [UInt8]? {
        try file.read(limit: Self.limit)
    }

    /// Replaces the saved data.
    func write(_ bytes: [UInt8]) throws(StorageError) {
        try file.write(bytes)
    }

    /// Keeps `bytes` aside as `app.data.unreadable` and removes `app.data`, so the next save starts anew.
    func setAside(_ bytes: [UInt8]) throws(StorageError) {
        try unreadable.write(bytes)
        try file.remove()
    }
}
