#if canImport(Glibc)
import Glibc
#endif

/// Where `relaunchctl journal` reads: the live journal, a folder, some files, or the live journal
/// merged with systemd-journal-remote's folder.
package enum JournalPlace: Equatable, Sendable {
    /// This machine's journal, every namespace's (`sd_journal_open_namespace`, local files only).
    case live
    /// The journal files in a folder (`sd_journal_open_directory`), e.g. an export or journal-remote's.
    case directory(String)
    /// Exactly these journal files (`sd_journal_open_files`).
    case files([String])
    /// This machine's journal and /var/log/journal/remote, as `journalctl --merge` reads both.
    case merge

    /// Where systemd-journal-remote writes by default.
    static let remoteDirectory = "/var/log/journal/remote"

    /// How errors name the place.
    var name: String {
        switch self {
        case .live: "the journal"
        case .directory(let path): "the journal files in \(path)"
        case .files(let paths) where paths.count == 1: "the journal file \(paths[0])"
        case .files(let paths) where paths.count <= 3: "the journal files \(paths.joined(separator: ", "))"
        case .files(let paths): "the \(paths.count) journal files \(paths[0]), \(paths[1]) …"
        case .merge: "the journal and \(Self.remoteDirectory)"
        }
    }

    /// The files `journalctl --merge` reads of this machine's journal and journal-remote's: every
    /// journal file in /var/log/journal and /run/log/journal and their subfolders (each machine's
    /// folder, each namespace's `MACHINE.NAMESPACE`, journal-remote's `remote`).
    static func mergedFiles() -> [String] {
        var files: [String] = []
        for root in ["/run/log/journal", "/var/log/journal"] {
            for name in folderNames(root) {
                let path = root + "/" + name
                if isJournalFile(name) { files.append(path); continue }
                files += folderNames(path).filter(isJournalFile).map { path + "/" + $0 }
            }
        }
        return files.sorted()
    }

    static func isJournalFile(_ name: String) -> Bool {
        name.hasSuffix(".journal") || name.hasSuffix(".journal~")
    }

    static func folderNames(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
