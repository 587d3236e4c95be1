#if canImport(Glibc)
import Glibc
#endif

/// Standard error for a program's one-line messages (relaunchctl's, permissiond's).
package enum StandardError {
    /// fd 2 as a stdio stream of its own: Swift 6 does not let code touch C's `stderr`.
    nonisolated(unsafe) private static let stream = fdopen(2, "w")

    /// Writes `text` to standard error, after whatever was printed to standard output.
    package static func write(_ text: String) {
        fflush(nil)
        guard let stream else { return }
        fputs(text, stream)
        fflush(stream)
    }

    /// `text` on one line: every line break (any of Unicode's, "\r\n" too) becomes a space.
    package static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
