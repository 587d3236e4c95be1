#if canImport(Glibc)
import Glibc
#endif

/// Why the rules file could not be written: the step, the path and the errno.
struct RulesFileError: Error, CustomStringConvertible {
    /// What was being done (`open`, `write`, `fsync`, `rename`).
    var step: String
    /// The path it was done to.
    var path: String
    /// The errno.
    var code: Int32

    /// `cannot STEP PATH: STRERROR`.
    var description: String { "cannot \(step) \(path): \(String(cString: strerror(code)))" }
}

/// A rules file that polkitd reads: replaced whole, by rename, never seen half written.
struct RulesFile {
    /// The file.
    var path: String

    /// The file's folder.
    private var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The temporary file beside it. Its name starts with a dot, which polkitd's folder monitor
    /// passes over (it reloads for `*.rules` names that start with neither `.` nor `#`), so only the
    /// rename makes it reload, once.
    private var temporary: String {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return folder + "/." + name + ".tmp"
    }

    /// The file's text now, or nil when it cannot be read.
    func current() -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the file with `text` (mode 0644, root's), unless it holds `text` already: written to
    /// the temporary file, synced, renamed over the file, the folder synced.
    ///
    /// - Returns: whether the file was replaced.
    /// - Throws: ``RulesFileError`` naming the step that failed; the file is then as it was.
    func replace(with text: String) throws(RulesFileError) -> Bool {
        if current() == text { return false }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RulesFileError(step: "open", path: temporary, code: errno) }
        var failure: RulesFileError?
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count, failure == nil {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno != EINTR { failure = RulesFileError(step: "write", path: temporary, code: errno) }
            } else {
                written += result
            }
        }
        if failure == nil, fchmod(descriptor, 0o644) != 0 { failure = RulesFileError(step: "chmod", path: temporary, code: errno) }
        if failure == nil, fsync(descriptor) != 0 { failure = RulesFileError(step: "fsync", path: temporary, code: errno) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = RulesFileError(step: "rename", path: path, code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
        return true
    }
}
