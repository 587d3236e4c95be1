internal import RestorationKit

/// `last-invocation` in the state directory: the `$INVOCATION_ID` of the instance that ran last, so a
/// launch can tell whether permissiond's last kill (LastKill) was of its predecessor.
struct InvocationRecord: Sendable {
    static let fileName = "last-invocation"
    private let file: ArchiveFile

    init(directory: String) {
        file = ArchiveFile(directory: directory, fileName: Self.fileName)
    }

    /// The recorded invocation id, nil when none was recorded or it cannot be read.
    func read() -> String? {
        guard let bytes = try? file.read(limit: 256) else { return nil }
        // split drops empty lines, so the first line it gives is never empty.
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
    }

    /// Records `invocationID` as the one running now.
    func write(_ invocationID: String) throws(StorageError) {
        try file.write(Array((invocationID + "\n").utf8))
    }
}
